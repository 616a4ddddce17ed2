/** Lesson 15: which batches a resumed epoch trains on, and the two files a checkpoint writes. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type SkipBatches = (order: readonly number[], batchSize: number, skip: number) => number[][];

export async function resumeBatches(): Promise<string> {
  const skipBatches = await lessonFunction<SkipBatches>(15, "skipBatches");
  const order = [7, 2, 9, 0, 4, 8, 1, 6, 3, 5];
  const B = 4;
  const W = 700;
  const H = 320;
  const c = new Canvas(W, H).title("Resuming in the middle of an epoch", "the epoch's order is rebuilt from seed + epoch; the saved step says how many batches to skip (batch size 4)");
  const cell = 44;
  const x0 = 150;
  const rows = [0, 1, 2, 3];
  rows.forEach((skip, r) => {
    const y = 78 + r * 56;
    const kept = skipBatches(order, B, skip).flat();
    const firstKept = order.length - kept.length;
    c.text(x0 - 12, y + 27, `skip = ${skip}`, { anchor: "end", weight: "bold" });
    order.forEach((idx, i) => {
      const trained = i >= firstKept && kept.length > 0;
      c.box(x0 + i * cell + Math.floor(i / B) * 10, y, cell - 4, 40, String(idx), { fill: trained ? COLORS.blue : COLORS.lightGrey, stroke: "#555555", text: { fill: trained ? "#ffffff" : "#777777", weight: "bold" } });
    });
    const batches = skipBatches(order, B, skip).length;
    c.text(x0 + order.length * cell + 30, y + 27, `${batches} batch${batches === 1 ? "" : "es"} left`, { fill: COLORS.muted });
  });
  c.legend(x0, H - 20, [{ label: "trained after the resume", color: COLORS.blue }]);
  c.legend(x0 + 200, H - 20, [{ label: "skipped (trained before the checkpoint) or never reached", color: COLORS.lightGrey }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-15-resume-batches.svg", lesson: 15, render: resumeBatches, uses: ["lesson-15/skipBatches"] }];
