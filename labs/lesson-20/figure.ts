/** Lesson 20: what the temperature does to the teacher's distribution, and why the loss has T². */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, PALETTE, axes, fmt, linspace, plotLine } from "../../lib/svg-diagrams.js";
import { lessonFunction, softmax, type Figure } from "../figures/figure.js";

type DistillationLoss = (s: tf.Tensor3D, t: tf.Tensor3D, labels: tf.Tensor2D, alpha: number, temperature: number) => { ce: tf.Scalar; distill: tf.Scalar; loss: tf.Scalar };

const TEACHER = [3, 1.5, 0.5, -0.5, -1];
const STUDENT = [1, 2, 0, 0, -1];
const TEMPS = [1, 2, 4];

export async function temperature(): Promise<string> {
  const distillationLoss = await lessonFunction<DistillationLoss>(20, "distillationLoss");
  // One counted position: [B=1, T=2, V=5], the label at position 1; α = 0 keeps the teacher term only.
  const at = (T: number): { distill: number; gradNorm: number } =>
    tf.tidy(() => {
      const s = tf.tensor3d([[STUDENT, [0, 0, 0, 0, 0]]]);
      const t = tf.tensor3d([[TEACHER, [0, 0, 0, 0, 0]]]);
      const labels = tf.tensor2d([[-100, 1]], undefined, "int32");
      const f = (x: tf.Tensor) => distillationLoss(x as tf.Tensor3D, t, labels, 0, T).distill;
      const distill = f(s).dataSync()[0]!;
      const g = tf.grad(f)(s);
      return { distill, gradNorm: Math.sqrt(tf.sum(tf.square(g)).dataSync()[0]!) };
    });
  const Ts = linspace(0.5, 6, 45);
  const curves = Ts.map((T) => ({ T, ...at(T) }));
  const W = 700;
  const H = 420;
  const c = new Canvas(W, H).title("Distillation: softening the teacher, and the T² that keeps the gradient's size", "teacher logits (3, 1.5, 0.5, −0.5, −1); student logits (1, 2, 0, 0, −1); values from distillationLoss");
  const left = axes(c, { left: 60, top: 70, width: 260, height: 210, x: [-0.5, 4.5], y: [0, 0.8], xTicks: [0, 1, 2, 3, 4], yTicks: [0, 0.2, 0.4, 0.6, 0.8], xLabel: "token", yLabel: "p_teacher", title: "softmax(teacher / T)" });
  TEMPS.forEach((T, k) => {
    const p = softmax(TEACHER.map((x) => x / T));
    p.forEach((v, i) => c.rect(left.sx(i) - 24 + k * 16, left.sy(v), 14, left.sy(0) - left.sy(v), { fill: PALETTE[k]!, stroke: "#333333" }));
  });
  c.legend(60, 336, TEMPS.map((T, k) => ({ label: `T = ${T}`, color: PALETTE[k]! })));
  const maxY = Math.max(...curves.map((p) => Math.max(p.distill, p.gradNorm))) * 1.1;
  const right = axes(c, { left: 410, top: 70, width: 260, height: 210, x: [0.5, 6], y: [0, maxY], xTicks: [1, 2, 3, 4, 5, 6], xLabel: "temperature T", title: "the teacher term (α = 0)" });
  plotLine(c, right, curves.map((p) => [p.T, p.distill] as const), { stroke: PALETTE[0]!, strokeWidth: 2.5 });
  plotLine(c, right, curves.map((p) => [p.T, p.gradNorm] as const), { stroke: PALETTE[1]!, strokeWidth: 2.5 });
  const t15 = at(1.5);
  c.line(right.sx(1.5), 70, right.sx(1.5), 280, { stroke: COLORS.grey, dash: "4 3" });
  c.text(right.sx(1.5) + 4, 84, `MiniMind T = 1.5: distill ${fmt(t15.distill, 3)}`, { size: 11, fill: COLORS.muted });
  c.legend(410, 336, [
    { label: "distill = T²·KL(p_T ‖ q_T)", color: PALETTE[0]!, kind: "line" },
    { label: "‖∂ distill / ∂ student logits‖", color: PALETTE[1]!, kind: "line" },
  ]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-20-temperature.svg", lesson: 20, render: temperature, uses: ["lesson-20/distillationLoss"] }];
