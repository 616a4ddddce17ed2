/** Lesson 31: M2PO masks the largest squared log-ratios until the batch's second moment is below τ. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, axes, fmt } from "../../lib/svg-diagrams.js";
import { lessonFunction, normal, seeded, type Figure } from "../figures/figure.js";

type M2po = (oldLogp: tf.Tensor2D, proxLogp: tf.Tensor2D, lossMask: tf.Tensor2D, m2Threshold: number) => tf.Tensor2D;

export async function m2poFigure(n = 20, tau = 0.04): Promise<string> {
  const fn = await lessonFunction<M2po>(31, "m2poMask");
  const rand = seeded(31);
  const gap = Array.from({ length: n }, (_, i) => (i === 4 ? 0.9 : i === 13 ? -0.6 : i === 9 ? 0.4 : 0.12 * normal(rand)));
  const proxLogp = Array.from({ length: n }, () => -1 - rand());
  const oldLogp = proxLogp.map((p, i) => p + gap[i]!);
  const kept = tf.tidy(() => Array.from(fn(tf.tensor2d([oldLogp]), tf.tensor2d([proxLogp]), tf.ones([1, n], "bool") as tf.Tensor2D, tau).dataSync()));
  const m2 = gap.map((g) => g * g);
  const order = m2.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  // Mean of what remains after removing the i largest.
  const suffix = order.map((_, i) => order.slice(i).reduce((s, [v]) => s + v, 0) / (n - i));
  const masked = kept.filter((k) => !k).length;
  const W = 700;
  const H = 350;
  const c = new Canvas(W, H).title("M2PO: drop the fewest tokens that bring the second moment under τ", `${n} tokens sorted by m₂ = (log π_behave − log π_prox)²; τ = ${tau}; mask from m2poMask`);
  const yMax = Math.ceil(order[0]![0] * 10) / 10;
  const ax = axes(c, { left: 70, top: 70, width: 600, height: 200, x: [-0.5, n - 0.5], y: [0, yMax], xTicks: [], yTicks: 5, yLabel: "m₂", xLabel: "tokens, largest m₂ first" });
  order.forEach(([v, i], rank) => {
    const on = kept[i]! > 0;
    c.rect(ax.sx(rank) - 11, ax.sy(v), 22, ax.sy(0) - ax.sy(v), { fill: on ? COLORS.blue : COLORS.red, stroke: "#333333", strokeWidth: 0.5 });
  });
  // The running mean of the remaining tokens, against τ.
  const pts = suffix.map((s, i) => [ax.sx(i), ax.sy(Math.min(s, yMax))] as const);
  c.polyline(pts, { stroke: COLORS.orange, strokeWidth: 2 });
  suffix.forEach((s, i) => c.circle(ax.sx(i), ax.sy(Math.min(s, yMax)), 3, { fill: COLORS.orange }));
  c.line(ax.sx(-0.5), ax.sy(tau), ax.sx(n - 0.5), ax.sy(tau), { stroke: COLORS.text, dash: "5 3" });
  c.text(ax.sx(n - 0.5) - 4, ax.sy(tau) - 6, `τ = ${tau}`, { anchor: "end", weight: "bold" });
  c.text(ax.sx(6), ax.sy(yMax * 0.75), `mean m₂ of all ${n} tokens: ${fmt(suffix[0]!, 3)} ≥ τ`, { fill: "#b35900" });
  c.text(ax.sx(6), ax.sy(yMax * 0.75) + 18, `after removing the largest ${masked}: ${fmt(suffix[masked]!, 3)} < τ, so ${masked} masked`, { fill: "#b35900", weight: "bold" });
  const ly = H - 22;
  c.legend(70, ly, [{ label: `masked by M2PO (${masked})`, color: COLORS.red }]);
  c.legend(250, ly, [{ label: `kept (${n - masked})`, color: COLORS.blue }]);
  c.legend(370, ly, [{ label: "mean m₂ of the tokens left after removing i", color: COLORS.orange, kind: "line" }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-31-m2po.svg", lesson: 31, render: () => m2poFigure(), uses: ["lesson-31/m2poMask"] }];
