/** Lesson 33: a multi-turn row with a hole in its loss mask, and the advantage GAE carries over it. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, axes, fmt } from "../../lib/svg-diagrams.js";
import { lessonFunction, seeded, type Figure } from "../figures/figure.js";

interface Options {
  attentionMask: tf.Tensor2D;
  lossMask: tf.Tensor2D;
  logprobs: tf.Tensor2D;
  refLogp?: tf.Tensor2D;
  values?: tf.Tensor2D;
  rewards: tf.Tensor1D;
  discount: number;
  gaeLambda: number;
  klCtl: number;
  klEstimator: "k1" | "k2" | "k3";
  maskNoEosWithZero: boolean;
  rewardBias: number;
  rewardScaling: number;
  rewardClip: number;
}
type ArealAdvantages = (o: Options) => { advantages: tf.Tensor2D; lossMask: tf.Tensor2D };

/** The roles of the tokens of one multi-turn row. */
const ROLES: Array<"prompt" | "answer" | "tool" | "pad"> = ["prompt", "prompt", "prompt", "answer", "answer", "answer", "answer", "tool", "tool", "tool", "answer", "answer", "answer", "pad"];
const FILL = { prompt: COLORS.lightGrey, answer: COLORS.lightGreen, tool: COLORS.lightOrange, pad: "#ffffff" };

export async function multiTurnRow(): Promise<string> {
  const fn = await lessonFunction<ArealAdvantages>(33, "arealAdvantages");
  const T = ROLES.length;
  const rand = seeded(33);
  const values = ROLES.map(() => Number((0.2 + 0.5 * rand()).toFixed(2)));
  const gamma = 1;
  const lambda = 0.9;
  const out = tf.tidy(() => {
    const r = fn({
      attentionMask: tf.tensor2d([ROLES.map((x) => (x === "pad" ? 0 : 1))], undefined, "bool"),
      lossMask: tf.tensor2d([ROLES.map((x) => (x === "answer" ? 1 : 0))], undefined, "bool"),
      logprobs: tf.zeros([1, T]) as tf.Tensor2D,
      values: tf.tensor2d([values]),
      rewards: tf.tensor1d([1]),
      discount: gamma,
      gaeLambda: lambda,
      klCtl: 0,
      klEstimator: "k1",
      maskNoEosWithZero: false,
      rewardBias: 0,
      rewardScaling: 1,
      rewardClip: 20,
    });
    return { adv: Array.from(r.advantages.dataSync()), mask: Array.from(r.lossMask.dataSync()) };
  });
  const W = 700;
  const H = 404;
  const c = new Canvas(W, H).title("A multi-turn row: the tool's tokens are a hole in the loss mask", `one outcome reward 1, γ = ${gamma}, λ = ${lambda}, random values V; advantages from arealAdvantages`);
  const left = 90;
  const cell = 42;
  const cx = (t: number) => left + t * cell + cell / 2;
  c.text(left - 8, 80, "token t", { anchor: "end", fill: COLORS.muted, size: 11 });
  c.text(left - 8, 104, "role", { anchor: "end", weight: "bold" });
  c.text(left - 8, 140, "loss mask", { anchor: "end", weight: "bold" });
  c.text(left - 8, 154, "(rolled −1)", { anchor: "end", fill: COLORS.muted, size: 11 });
  for (let t = 0; t < T; t++) {
    c.text(cx(t), 80, String(t), { anchor: "middle", fill: COLORS.muted, size: 11 });
    c.box(left + t * cell + 1, 86, cell - 2, 28, ROLES[t]!, { fill: FILL[ROLES[t]!], stroke: "#999999", dash: ROLES[t] === "pad" ? "3 3" : undefined, text: { size: 10 } });
    const m = out.mask[t]! > 0;
    c.box(left + t * cell + 1, 124, cell - 2, 26, m ? "1" : "0", { fill: m ? COLORS.green : "#ffffff", stroke: m ? COLORS.green : "#bbbbbb", text: { fill: m ? "#ffffff" : COLORS.muted, weight: "bold" } });
  }
  const amax = Math.max(...out.adv.map(Math.abs), 0.5);
  const lo = Math.min(0, ...out.adv) * 1.15 - 0.05 * amax;
  const ax = axes(c, { left, top: 200, width: T * cell, height: 130, x: [-0.5, T - 0.5], y: [lo, amax * 1.15], xTicks: [], yTicks: 4, yLabel: "advantage", xLabel: "position t (next-token coordinates: predicts token t + 1)" });
  c.line(ax.sx(-0.5), ax.sy(0), ax.sx(T - 0.5), ax.sy(0), { stroke: "#555555" });
  for (let t = 0; t < T; t++) {
    const a = out.adv[t]!;
    const m = out.mask[t]! > 0;
    const top = Math.min(ax.sy(a), ax.sy(0));
    c.rect(ax.sx(t) - 12, top, 24, Math.abs(ax.sy(a) - ax.sy(0)), { fill: m ? COLORS.blue : "#ffffff", stroke: m ? COLORS.blue : COLORS.grey, dash: m ? undefined : "3 2" });
    c.text(ax.sx(t), a >= 0 ? ax.sy(a) - 4 : ax.sy(a) + 12, fmt(a, 2), { anchor: "middle", size: 9, fill: m ? COLORS.text : COLORS.muted });
  }
  // The carry: the last answer position before the tool bootstraps from the first one after it.
  const holes = out.mask.map((m, t) => (m === 0 && t > 0 && out.mask[t - 1]! > 0 && out.mask.slice(t).some((x) => x > 0) ? t : -1)).filter((t) => t >= 0);
  for (const h of holes) {
    const next = out.mask.findIndex((m, t) => t > h && m > 0);
    c.curvedArrow(ax.sx(next), 194, ax.sx(h - 1), 194, 22, { color: COLORS.orange, width: 2 });
    c.text(ax.sx(next) + 16, 188, "V′ and A′ carried across the hole", { fill: "#b35900", size: 11, weight: "bold" });
  }
  c.legend(left, H - 16, [{ label: "counted in the loss", color: COLORS.blue }]);
  c.legend(left + 170, H - 16, [{ label: "masked slot: stores the carried A, ignored by the loss", color: "#ffffff" }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-33-multi-turn-mask.svg", lesson: 33, render: multiTurnRow, uses: ["lesson-33/arealAdvantages"] }];
