/** Lesson 23: PPO's clipped surrogate against the ratio, for a positive and a negative advantage. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, axes, fmt, linspace, plotLine } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type PolicyLoss = (newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D, clipEpsilon: number) => tf.Scalar;

const EPS = 0.2;

export async function clippedSurrogate(): Promise<string> {
  const loss = await lessonFunction<PolicyLoss>(23, "ppoPolicyLoss");
  /** J = −loss of one token with ratio ρ and advantage A. */
  const objective = (rho: number, adv: number): number =>
    tf.tidy(() => -loss(tf.tensor2d([[Math.log(rho)]]), tf.tensor2d([[0]]), tf.tensor2d([[adv]]), tf.tensor2d([[1]]), EPS).dataSync()[0]!);
  const rhos = linspace(0.3, 1.9, 161);
  const W = 700;
  const H = 380;
  const c = new Canvas(W, H).title("PPO's clipped objective J against the ratio ρ = π_θ / π_old", `one token, ε = ${EPS}; J computed by ppoPolicyLoss (as −loss)`);
  const panels: Array<{ adv: number; left: number; name: string }> = [
    { adv: 1, left: 70, name: "A = +1 (a good token)" },
    { adv: -1, left: 400, name: "A = −1 (a bad token)" },
  ];
  for (const p of panels) {
    const J = rhos.map((r) => [r, objective(r, p.adv)] as const);
    const ax = axes(c, { left: p.left, top: 74, width: 260, height: 220, x: [0.3, 1.9], y: [-2, 2], xTicks: [0.4, 0.8, 1, 1.2, 1.6], yTicks: [-2, -1, 0, 1, 2], xLabel: "ratio ρ", yLabel: p.left < 200 ? "objective J" : undefined, title: p.name });
    // The trust region.
    c.rect(ax.sx(1 - EPS), 74, ax.sx(1 + EPS) - ax.sx(1 - EPS), 220, { fill: COLORS.lightGreen, opacity: 0.6 });
    c.line(ax.sx(0.3), ax.sy(0), ax.sx(1.9), ax.sy(0), { stroke: "#999999" });
    plotLine(c, ax, rhos.map((r) => [r, r * p.adv] as const), { stroke: COLORS.grey, strokeWidth: 1.5, dash: "6 4" });
    plotLine(c, ax, J, { stroke: p.adv > 0 ? COLORS.blue : COLORS.red, strokeWidth: 3 });
    // Where the objective is flat (no gradient): beyond 1 + ε for A > 0, below 1 − ε for A < 0.
    const flat = J.filter(([r]) => (p.adv > 0 ? r > 1 + EPS : r < 1 - EPS));
    const [fx, fy] = flat[Math.floor(flat.length / 2)]!;
    c.text(ax.sx(fx), ax.sy(fy) + (p.adv > 0 ? 20 : 22), "flat: gradient 0", { anchor: "middle", weight: "bold", fill: COLORS.text });
    const open = J.filter(([r]) => (p.adv > 0 ? r < 1 - EPS : r > 1 + EPS));
    const [ox, oy] = open[Math.floor(open.length / 2)]!;
    c.text(ax.sx(ox), ax.sy(oy) + (p.adv > 0 ? -14 : -14), "full gradient", { anchor: "middle", fill: COLORS.text });
    c.text(ax.sx(1 - EPS) + 2, 88, `1−ε`, { fill: COLORS.muted, size: 11 });
    c.text(ax.sx(1 + EPS) - 2, 88, `1+ε`, { fill: COLORS.muted, size: 11, anchor: "end" });
  }
  const ly = H - 22;
  c.legend(80, ly, [{ label: "J, A = +1", color: COLORS.blue, kind: "line" }]);
  c.legend(210, ly, [{ label: "J, A = −1", color: COLORS.red, kind: "line" }]);
  c.legend(340, ly, [{ label: "unclipped ρ·A", color: COLORS.grey, kind: "dashed" }]);
  c.legend(490, ly, [{ label: "trust region [1−ε, 1+ε]", color: COLORS.lightGreen }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-23-clipped-surrogate.svg", lesson: 23, render: clippedSurrogate, uses: ["lesson-23/ppoPolicyLoss"] }];
