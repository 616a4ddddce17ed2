/** Lesson 1: the pipeline this course builds, stage by stage, with the lessons of each. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { STAGES } from "../lesson-1/stages.js";
import type { Figure } from "../figures/figure.js";

/** "3, 8-13" for [3, 8, 9, 10, 11, 12, 13]. */
function ranges(ns: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    out.push(j - i >= 2 ? `${ns[i]}-${ns[j]}` : ns.slice(i, j + 1).join(", "));
    i = j + 1;
  }
  return out.join(", ");
}

export function pipeline(): string {
  const W = 700;
  const stages = STAGES.filter((s) => s.name !== "AReaL");
  const perRow = 5;
  const bw = 122;
  const bh = 62;
  const gap = (W - 40 - perRow * bw) / (perRow - 1);
  const H = 70 + Math.ceil(stages.length / perRow) * (bh + 56) + 10;
  const c = new Canvas(W, H).title("From raw text to a served model: the stages and their lessons", "MiniMind's order (d65ef2c); each box: stage, what it makes, the lessons that teach it");
  const fill = (i: number) => [COLORS.lightBlue, COLORS.lightBlue, COLORS.lightBlue, COLORS.lightGreen, COLORS.lightGreen, COLORS.lightOrange, COLORS.lightOrange, COLORS.lightRed, COLORS.lightRed, COLORS.lightPurple][i] ?? COLORS.lightGrey;
  const pos = (i: number) => {
    const row = Math.floor(i / perRow);
    const col = row % 2 === 0 ? i % perRow : perRow - 1 - (i % perRow);
    return { x: 20 + col * (bw + gap), y: 70 + row * (bh + 56) };
  };
  stages.forEach((s, i) => {
    const { x, y } = pos(i);
    c.box(x, y, bw, bh, [s.name, s.makes, `${s.lessons.length > 1 ? "lessons" : "lesson"} ${ranges(s.lessons)}`], { fill: fill(i), text: { size: 11 } });
    if (i > 0) {
      const p = pos(i - 1);
      if (p.y === y) c.arrow(p.x < x ? p.x + bw : p.x, y + bh / 2, p.x < x ? x : x + bw, y + bh / 2, { color: COLORS.grey });
      else c.arrow(p.x + bw / 2, p.y + bh, x + bw / 2, y, { color: COLORS.grey });
    }
  });
  const last = pos(stages.length - 1);
  const y = last.y + bh + 34;
  c.text(W / 2, y, "then the AReaL track (lessons 29-34): the same RL losses, made robust to stale, asynchronous rollouts", { anchor: "middle", size: 12, fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-01-pipeline.svg", lesson: 1, render: pipeline }];
