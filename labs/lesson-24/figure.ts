/** Lesson 24: GRPO's group-relative advantages: each group is its own baseline. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, axes, fmt } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type GroupAdvantages = (rewards: tf.Tensor1D, numGenerations: number, eps?: number) => tf.Tensor1D;

/** Three prompts, four answers each: one solved once, one solved three times, one never. */
const REWARDS = [
  [1, 0, 0, 0],
  [1, 1, 0.5, 0],
  [0, 0, 0, 0],
];

export async function groupNormalisation(): Promise<string> {
  const fn = await lessonFunction<GroupAdvantages>(24, "groupRelativeAdvantages");
  const G = REWARDS[0]!.length;
  const flat = REWARDS.flat();
  const adv = tf.tidy(() => Array.from(fn(tf.tensor1d(flat), G).dataSync()));
  const W = 700;
  const H = 360;
  const c = new Canvas(W, H).title("GRPO: each answer is scored against its own group", `G = ${G} answers per prompt; A = (r − mean of the group) / (std of the group + 1e-4), from groupRelativeAdvantages`);
  const n = flat.length;
  const ax = axes(c, { left: 70, top: 70, width: 610, height: 210, x: [-0.5, n - 0.5], y: [-2, 2.5], xTicks: [], yTicks: [-2, -1, 0, 1, 2], yLabel: "reward · advantage" });
  c.line(ax.sx(-0.5), ax.sy(0), ax.sx(n - 0.5), ax.sy(0), { stroke: "#555555" });
  REWARDS.forEach((group, g) => {
    const mean = group.reduce((a, b) => a + b, 0) / G;
    const x0 = ax.sx(g * G - 0.5);
    const x1 = ax.sx((g + 1) * G - 0.5);
    if (g > 0) c.line(x0, 70, x0, 280, { stroke: "#999999" });
    c.text((x0 + x1) / 2, 86, `prompt ${g + 1}: mean reward ${fmt(mean, 2)}`, { anchor: "middle", weight: "bold", size: 11 });
    c.line(x0 + 4, ax.sy(mean), x1 - 4, ax.sy(mean), { stroke: COLORS.grey, dash: "5 3" });
    group.forEach((r, j) => {
      const i = g * G + j;
      const a = adv[i]!;
      c.rect(ax.sx(i) - 16, ax.sy(r), 14, ax.sy(0) - ax.sy(r), { fill: "#cccccc", stroke: "#555555" });
      const top = Math.min(ax.sy(a), ax.sy(0));
      c.rect(ax.sx(i) + 2, top, 14, Math.abs(ax.sy(a) - ax.sy(0)), { fill: a >= 0 ? COLORS.blue : COLORS.red, stroke: "#333333", strokeWidth: 0.5 });
      c.text(ax.sx(i) + 9, a >= 0 ? ax.sy(a) - 4 : ax.sy(a) + 13, fmt(a, 2), { anchor: "middle", size: 10 });
      c.text(ax.sx(i), 296, `r = ${fmt(r, 1)}`, { anchor: "middle", size: 10, fill: COLORS.muted });
    });
  });
  c.text(ax.sx(2 * G + (G - 1) / 2), ax.sy(-1), "every answer alike: all 0,", { anchor: "middle", fill: COLORS.muted, size: 11 });
  c.text(ax.sx(2 * G + (G - 1) / 2), ax.sy(-1) + 14, "no learning signal", { anchor: "middle", fill: COLORS.muted, size: 11 });
  c.legend(70, H - 32, [{ label: "reward r", color: "#cccccc" }]);
  c.legend(180, H - 32, [{ label: "advantage A > 0", color: COLORS.blue }]);
  c.legend(330, H - 32, [{ label: "advantage A < 0", color: COLORS.red }]);
  c.legend(480, H - 32, [{ label: "group mean reward", color: COLORS.grey, kind: "dashed" }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-24-group-advantages.svg", lesson: 24, render: groupNormalisation, uses: ["lesson-24/groupRelativeAdvantages"] }];
