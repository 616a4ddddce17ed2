/** Lesson 34: sequences packed into token-balanced micro-batches. */
import { COLORS, Canvas, PALETTE, axes, shade } from "../../lib/svg-diagrams.js";
import { lessonFunction, seeded, type Figure } from "../figures/figure.js";

type Split = (seqLens: readonly number[], nMbs: number, maxTokensPerMb?: number) => number[][];

export async function microBatches(count = 12, nMbs = 3): Promise<string> {
  const split = await lessonFunction<Split>(34, "splitMicroBatches");
  const rand = seeded(34);
  const lens = Array.from({ length: count }, () => 40 + Math.floor(rand() * 460));
  const groups = split(lens, nMbs);
  const naive = Array.from({ length: nMbs }, (_, m) => lens.map((_, i) => i).filter((i) => Math.floor((i * nMbs) / count) === m));
  const total = (g: number[]) => g.reduce((s, i) => s + lens[i]!, 0);
  const most = Math.max(...groups.map(total), ...naive.map(total));
  const W = 700;
  const H = 150 + 2 * nMbs * 34 + 40;
  const c = new Canvas(W, H).title(`${count} sequences in ${nMbs} micro-batches, balanced by tokens`, "each box is one sequence, its width its length; the step waits for the fullest micro-batch");
  const xMax = Math.ceil(most / 250) * 250;
  const panel = (top: number, gs: number[][], title: string) => {
    const ax = axes(c, { left: 110, top, width: 520, height: nMbs * 34, x: [0, xMax], y: [0, nMbs], yTicks: [], xTicks: 5, title });
    gs.forEach((g, m) => {
      const y = top + m * 34 + 5;
      c.text(104, y + 17, `micro-batch ${m}`, { anchor: "end", size: 11 });
      let x = 0;
      for (const i of g) {
        c.rect(ax.sx(x), y, ax.sx(x + lens[i]!) - ax.sx(x), 24, { fill: shade(0.12 + (0.3 * i) / count, [31, 119, 180]), stroke: COLORS.blue });
        if (ax.sx(x + lens[i]!) - ax.sx(x) > 22) c.text((ax.sx(x) + ax.sx(x + lens[i]!)) / 2, y + 16, `#${i}`, { anchor: "middle", size: 10 });
        x += lens[i]!;
      }
      c.text(ax.sx(x) + 5, y + 16, `${x}`, { size: 11, weight: x === Math.max(...gs.map(total)) ? "bold" : "normal" });
    });
    const worst = Math.max(...gs.map(total));
    c.line(ax.sx(worst), top, ax.sx(worst), top + nMbs * 34, { stroke: COLORS.red, dash: "5 3", strokeWidth: 1.5 });
  };
  panel(72, naive, "in order, equal counts: the slowest micro-batch sets the pace");
  panel(72 + nMbs * 34 + 62, groups, "splitMicroBatches: balanced by token count");
  c.text(370, H - 14, "tokens", { anchor: "middle" });
  void PALETTE;
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-34-micro-batches.svg", lesson: 34, render: () => microBatches(), uses: ["lesson-34/splitMicroBatches"] }];
