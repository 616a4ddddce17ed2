/** Lesson 30: the log-linear proximal stand-in, and its fraction α against staleness. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, axes, fmt, plotLine } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type ProxApprox = (o: { oldLogp: tf.Tensor2D; logprobs: tf.Tensor2D; versions: tf.Tensor2D; currentVersion: number }) => { loglinear: tf.Tensor2D; linear: tf.Tensor2D; rollout: tf.Tensor2D };

export async function proxAlpha(current = 10, maxStale = 8): Promise<string> {
  const fn = await lessonFunction<ProxApprox>(30, "proxLogpApproximations");
  // One token per staleness s = 1..maxStale, log π_behave = −2 and log π_θ = −1: α = (loglinear − old) / (θ − old).
  const stale = Array.from({ length: maxStale }, (_, i) => i + 1);
  const OLD = -2;
  const NOW = -1;
  const approx = tf.tidy(() => {
    const r = fn({ oldLogp: tf.fill([1, maxStale], OLD) as tf.Tensor2D, logprobs: tf.fill([1, maxStale], NOW) as tf.Tensor2D, versions: tf.tensor2d([stale.map((s) => current - s)], undefined, "int32"), currentVersion: current });
    return { loglinear: Array.from(r.loglinear.dataSync()), linear: Array.from(r.linear.dataSync()) };
  });
  const alpha = approx.loglinear.map((l) => (l - OLD) / (NOW - OLD));
  const W = 700;
  const H = 340;
  const c = new Canvas(W, H).title("Approximating π_prox from versions: α of the way from π_behave to π_θ", `proxLogpApproximations with log π_behave = ${fmt(OLD, 0)}, log π_θ = ${fmt(NOW, 0)}, v_θ = ${current}, v_prox = ${current - 1}`);
  // Left: one token four versions stale, on its path through training.
  const s4 = 4;
  const la = axes(c, { left: 70, top: 70, width: 260, height: 200, x: [current - s4 - 0.5, current + 0.5], y: [-2.2, -0.8], xTicks: Array.from({ length: s4 + 1 }, (_, i) => current - s4 + i), xTickFormat: (v) => `v${v}`, yTicks: [-2, -1.5, -1], xLabel: "version", yLabel: "log π(token)", title: `a token ${s4} versions stale` });
  plotLine(c, la, [[current - s4, OLD], [current, NOW]], { stroke: COLORS.grey, dash: "5 3", strokeWidth: 1.5 });
  const lp = approx.loglinear[s4 - 1]!;
  c.circle(la.sx(current - s4), la.sy(OLD), 6, { fill: COLORS.orange, stroke: "#333333" });
  c.text(la.sx(current - s4) + 10, la.sy(OLD) + 4, "π_behave", { fill: "#b35900", weight: "bold" });
  c.circle(la.sx(current), la.sy(NOW), 6, { fill: COLORS.blue, stroke: "#333333" });
  c.text(la.sx(current) - 10, la.sy(NOW) + 4, "π_θ", { fill: COLORS.blue, weight: "bold", anchor: "end" });
  c.circle(la.sx(current - 1), la.sy(lp), 6, { fill: COLORS.purple, stroke: "#333333" });
  c.text(la.sx(current - 1) + 10, la.sy(lp) + 16, `π̂_prox: α = ${fmt(alpha[s4 - 1]!, 2)}`, { fill: COLORS.purple, weight: "bold", anchor: "middle" });
  // Right: α against staleness.
  const ra = axes(c, { left: 420, top: 70, width: 260, height: 200, x: [0.5, maxStale + 0.5], y: [0, 1], xTicks: stale, yTicks: [0, 0.25, 0.5, 0.75, 1], xLabel: "staleness s = v_θ − v_behave", yLabel: "α", title: "α = (s − 1) / s" });
  plotLine(c, ra, stale.map((s, i) => [s, alpha[i]!] as const), { stroke: COLORS.purple, strokeWidth: 2 });
  stale.forEach((s, i) => c.circle(ra.sx(s), ra.sy(alpha[i]!), 4, { fill: COLORS.purple }));
  c.text(ra.sx(1) + 8, ra.sy(0) - 8, "s = 1: π_behave is π_prox", { size: 11, fill: COLORS.muted });
  c.text(W / 2, H - 12, "log-linear stand-in: log π̂_prox = log π_behave + α·(log π_θ − log π_behave); saves one forward pass", { anchor: "middle", size: 11 });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-30-prox-alpha.svg", lesson: 30, render: () => proxAlpha(), uses: ["lesson-30/proxLogpApproximations"] }];
