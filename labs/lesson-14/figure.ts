/** Lesson 14: MiniMind's cosine schedule with its floor, and when an accumulating optimiser steps. */
import { COLORS, Canvas, axes, fmt, plotLine } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type CosineLr = (step: number, total: number, lr: number) => number;
type Decide = (step: number, k: number) => boolean;
type Flush = (last: number, start: number, k: number) => boolean;

export async function schedule(): Promise<string> {
  const cosineLr = await lessonFunction<CosineLr>(14, "cosineLr");
  const shouldStepOptimizer = await lessonFunction<Decide>(14, "shouldStepOptimizer");
  const shouldFlushTail = await lessonFunction<Flush>(14, "shouldFlushTail");
  const [T, lr, K] = [30, 5e-4, 4];
  const W = 700;
  const H = 380;
  const c = new Canvas(W, H).title("The learning rate over a run, and when the optimiser steps", `cosineLr(step, T = ${T}, lr = 5e-4); accumulation K = ${K} over one epoch of ${T} micro-batches`);
  const ax = axes(c, { left: 80, top: 70, width: 580, height: 190, x: [0, T], y: [0, 5.5e-4], xTicks: 6, yTicks: [0, 1e-4, 2e-4, 3e-4, 4e-4, 5e-4], yTickFormat: (v) => (v === 0 ? "0" : `${fmt(v * 1e4, 0)}e-4`), xLabel: "micro-batch (step)", yLabel: "learning rate" });
  c.line(ax.sx(0), ax.sy(lr / 10), ax.sx(T), ax.sy(lr / 10), { stroke: COLORS.muted, dash: "5 4" });
  c.text(ax.sx(T) - 4, ax.sy(lr / 10) - 6, "floor lr/10", { anchor: "end", fill: COLORS.muted });
  plotLine(c, ax, Array.from({ length: 121 }, (_, i) => [(i * T) / 120, cosineLr((i * T) / 120, T, lr)] as const), { stroke: COLORS.blue, strokeWidth: 2.5 });
  const rowY = H - 60;
  c.text(ax.sx(0) - 8, rowY + 4, "optimiser", { anchor: "end" });
  for (let s = 1; s <= T; s++) {
    const steps = shouldStepOptimizer(s, K);
    const tail = s === T && shouldFlushTail(T, 0, K);
    c.circle(ax.sx(s), rowY, steps || tail ? 6 : 3, { fill: steps ? COLORS.blue : tail ? COLORS.orange : COLORS.lightGrey, stroke: steps || tail ? "#333333" : "#999999" });
    if (steps) c.circle(ax.sx(s), ax.sy(cosineLr(s, T, lr)), 3.5, { fill: COLORS.blue });
  }
  c.legend(ax.sx(0), rowY + 24, [
    { label: `an optimiser step (every ${K}th micro-batch), at the lr of that step`, color: COLORS.blue, kind: "dot" },
    { label: `the tail flush: steps ${T - (T % K) + 1}-${T} never filled a group`, color: COLORS.orange, kind: "dot" },
  ]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-14-schedule.svg", lesson: 14, render: schedule, uses: ["lesson-14/cosineLr", "lesson-14/shouldStepOptimizer", "lesson-14/shouldFlushTail"] }];
