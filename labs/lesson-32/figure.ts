/** Lesson 32: the gradient weight a token gets against its ratio: vanilla, PPO's clip and SAPO's soft gate. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, PALETTE, axes, linspace, plotLine } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type SapoLoss = (o: { logprobs: tf.Tensor2D; oldLogprobs: tf.Tensor2D; advantages: tf.Tensor2D; tauPos: number; tauNeg: number; lossMask: tf.Tensor2D }) => { loss: tf.Scalar };
type PolicyLoss = (newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D, clipEpsilon: number) => tf.Scalar;

const TAUS = [1, 4, 10];

export async function gradientWeights(): Promise<string> {
  const sapo = await lessonFunction<SapoLoss>(32, "sapoLoss");
  const ppo = await lessonFunction<PolicyLoss>(23, "ppoPolicyLoss");
  const rs = linspace(0.3, 2.2, 96);
  const N = rs.length;
  // One token per ratio, A = +1: w(r) = −∂loss/∂log π_θ, times N to undo the mean over tokens.
  const weights = (loss: (lp: tf.Tensor2D) => tf.Scalar): number[] =>
    tf.tidy(() => {
      const lp = tf.tensor2d([rs.map(Math.log)]);
      return Array.from(tf.grad((x) => loss(x as tf.Tensor2D))(lp).dataSync()).map((g) => -g * N);
    });
  const old = () => tf.zeros([1, N]) as tf.Tensor2D;
  const adv = () => tf.ones([1, N]) as tf.Tensor2D;
  const mask = () => tf.ones([1, N]) as tf.Tensor2D;
  const maskBool = () => tf.ones([1, N], "bool") as tf.Tensor2D;
  const sapoW = TAUS.map((tau) => weights((lp) => sapo({ logprobs: lp, oldLogprobs: old(), advantages: adv(), tauPos: tau, tauNeg: tau, lossMask: maskBool() }).loss));
  const ppoW = weights((lp) => ppo(lp, old(), adv(), mask(), 0.2));
  const W = 700;
  const H = 360;
  const c = new Canvas(W, H).title("The gradient weight of one token (A = +1) against its ratio r", "w(r) = −∂loss/∂log π_θ, by autograd through ppoPolicyLoss (ε = 0.2) and sapoLoss (τ₊ = τ)");
  const ax = axes(c, { left: 70, top: 64, width: 430, height: 230, x: [0.3, 2.2], y: [0, 2.2], xTicks: [0.5, 1, 1.5, 2], yTicks: [0, 0.5, 1, 1.5, 2], xLabel: "ratio r = π_θ / π_old", yLabel: "gradient weight w(r)" });
  plotLine(c, ax, rs.map((r) => [r, r] as const), { stroke: COLORS.grey, dash: "6 4", strokeWidth: 1.5 });
  // The clip's weight drops from 1 + ε to 0: draw it as two pieces, with the jump dotted.
  const inside = rs.map((r, i) => [r, ppoW[i]!] as const).filter(([r]) => r <= 1.2);
  const outside = rs.map((r, i) => [r, ppoW[i]!] as const).filter(([r]) => r > 1.2);
  plotLine(c, ax, inside, { stroke: COLORS.text, strokeWidth: 2.5 });
  plotLine(c, ax, outside, { stroke: COLORS.text, strokeWidth: 2.5 });
  c.line(ax.sx(1.2), ax.sy(inside[inside.length - 1]![1]), ax.sx(1.2), ax.sy(0), { stroke: COLORS.text, dash: "2 3" });
  sapoW.forEach((w, k) => plotLine(c, ax, rs.map((r, i) => [r, w[i]!] as const), { stroke: PALETTE[k]!, strokeWidth: 2.5 }));
  c.circle(ax.sx(1), ax.sy(1), 4, { fill: COLORS.text });
  c.legend(520, 80, [
    { label: "vanilla: w = r", color: COLORS.grey, kind: "dashed" },
    { label: "PPO clip, ε = 0.2", color: COLORS.text, kind: "line" },
    ...TAUS.map((t, k) => ({ label: `SAPO, τ = ${t}`, color: PALETTE[k]!, kind: "line" as const })),
  ], 20);
  c.text(520, 200, "all agree at r = 1 (w = 1);", { size: 11, fill: COLORS.muted });
  c.text(520, 215, "the clip drops to 0 past 1 + ε,", { size: 11, fill: COLORS.muted });
  c.text(520, 230, "SAPO's gate fades smoothly,", { size: 11, fill: COLORS.muted });
  c.text(520, 245, "faster for a larger τ", { size: 11, fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-32-gradient-weight.svg", lesson: 32, render: gradientWeights, uses: ["lesson-32/sapoLoss", "lesson-23/ppoPolicyLoss"] }];
