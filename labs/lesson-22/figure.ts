/** Lesson 22: the DPO loss and the push it gives a pair, against the margin, for several β. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, PALETTE, axes, linspace, plotLine } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type DpoLoss = (refLogProbs: tf.Tensor2D, policyLogProbs: tf.Tensor2D, mask: tf.Tensor2D, beta: number) => tf.Scalar;

const BETAS = [0.15, 0.5, 1];

export async function dpoCurves(): Promise<string> {
  const dpoLoss = await lessonFunction<DpoLoss>(22, "dpoLoss");
  // One pair of one-token answers: rows [chosen, rejected]; the reference scores both 0, so the
  // margin z is the chosen answer's policy log-probability minus the rejected one's.
  const at = (z: number, beta: number): [number, number] =>
    tf.tidy(() => {
      const ref = tf.zeros([2, 1]) as tf.Tensor2D;
      const mask = tf.ones([2, 1]) as tf.Tensor2D;
      const f = (policy: tf.Tensor) => dpoLoss(ref, policy as tf.Tensor2D, mask, beta);
      const policy = tf.tensor2d([[z], [0]]);
      const loss = f(policy).dataSync()[0]!;
      const push = -tf.grad(f)(policy).dataSync()[0]!; // −∂L/∂(chosen log-prob)
      return [loss, push];
    });
  const zs = linspace(-12, 12, 97);
  const curves = BETAS.map((b) => zs.map((z) => [z, ...at(z, b)] as const));
  const W = 700;
  const H = 360;
  const c = new Canvas(W, H).title("DPO: the loss and the push on a pair, against the margin z", "z = (log π_c − log π_ref,c) − (log π_r − log π_ref,r); both from dpoLoss and its gradient");
  const left = axes(c, { left: 64, top: 70, width: 270, height: 210, x: [-12, 12], y: [0, 12], xTicks: [-12, -6, 0, 6, 12], xLabel: "margin z", yLabel: "loss −log σ(βz)", title: "loss" });
  const right = axes(c, { left: 414, top: 70, width: 270, height: 210, x: [-12, 12], y: [0, 1.05], xTicks: [-12, -6, 0, 6, 12], yTicks: [0, 0.25, 0.5, 0.75, 1], xLabel: "margin z", yLabel: "push βσ(−βz)", title: "push on the chosen answer (−∂L/∂log π_c)" });
  curves.forEach((pts, i) => {
    plotLine(c, left, pts.map(([z, l]) => [z, l] as const), { stroke: PALETTE[i]!, strokeWidth: 2.5 });
    plotLine(c, right, pts.map(([z, , g]) => [z, g] as const), { stroke: PALETTE[i]!, strokeWidth: 2.5 });
  });
  c.line(left.sx(0), 70, left.sx(0), 280, { stroke: COLORS.grey, dash: "4 3" });
  c.line(right.sx(0), 70, right.sx(0), 280, { stroke: COLORS.grey, dash: "4 3" });
  c.text(left.sx(-0.6), left.sy(11), "← ranked the wrong way", { size: 11, fill: COLORS.muted, anchor: "end" });
  c.text(left.sx(0.6), left.sy(11), "ranked right →", { size: 11, fill: COLORS.muted });
  c.legend(64, H - 24, [{ label: `β = ${BETAS[0]} (MiniMind)`, color: PALETTE[0]!, kind: "line" }]);
  c.legend(260, H - 24, [{ label: `β = ${BETAS[1]}`, color: PALETTE[1]!, kind: "line" }]);
  c.legend(400, H - 24, [{ label: `β = ${BETAS[2]}`, color: PALETTE[2]!, kind: "line" }]);
  c.text(520, H - 20, "large β: saturates sooner", { fill: COLORS.muted, size: 11 });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-22-dpo-loss.svg", lesson: 22, render: dpoCurves, uses: ["lesson-22/dpoLoss"] }];
