/** Lesson 18: a frozen linear layer with its LoRA adapter beside it, and the merge. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, fmt } from "../../lib/svg-diagrams.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

type MergeLora = (weight: tf.Tensor2D, loraA: tf.Tensor2D, loraB: tf.Tensor2D, alpha: number) => tf.Tensor2D;

export async function loraDiagram(): Promise<string> {
  const mergeLora = await lessonFunction<MergeLora>(18, "mergeLora");
  // The lesson's worked example, merged by the reference: the numbers printed under the diagram.
  const merged = tf.tidy(() => mergeLora(tf.tensor2d([[1, 0.5], [-0.5, 1]]), tf.tensor2d([[0.2, 0.4]]), tf.tensor2d([[1], [-2]]), 2).arraySync());
  const H768 = 768;
  const r = 16;
  const layer = H768 * H768;
  const adapter = r * (H768 + H768);
  const W = 700;
  const Hh = 390;
  const c = new Canvas(W, Hh).title("LoRA: a frozen layer plus a detour through r numbers", "y = x·Wᵀ + (α/r)·(x·Aᵀ)·Bᵀ; only A and B train");
  c.box(30, 150, 70, 40, "x  [in]", { fill: COLORS.lightBlue, stroke: COLORS.blue });
  c.box(200, 70, 200, 70, ["W  [out, in]", "frozen"], { fill: "#eeeeee", stroke: COLORS.grey, strokeWidth: 2 });
  c.box(170, 200, 80, 60, ["A  [r, in]", "N(0, 0.02²)"], { fill: COLORS.lightOrange, stroke: COLORS.orange, strokeWidth: 2 });
  c.box(280, 215, 36, 30, "h [r]", { fill: "#ffffff", stroke: COLORS.orange });
  c.box(346, 200, 80, 60, ["B  [out, r]", "zeros"], { fill: COLORS.lightOrange, stroke: COLORS.orange, strokeWidth: 2 });
  c.box(450, 213, 50, 34, "× α/r", { fill: "#ffffff", stroke: COLORS.orange });
  c.circle(540, 170, 16, { fill: "#ffffff", stroke: COLORS.text, strokeWidth: 2 });
  c.text(540, 176, "+", { anchor: "middle", size: 18, weight: "bold" });
  c.box(590, 150, 84, 40, "y  [out]", { fill: COLORS.lightBlue, stroke: COLORS.blue });
  c.arrow(100, 165, 198, 110, { color: COLORS.text });
  c.arrow(100, 178, 168, 228, { color: COLORS.orange });
  c.arrow(250, 230, 278, 230, { color: COLORS.orange });
  c.arrow(316, 230, 344, 230, { color: COLORS.orange });
  c.arrow(426, 230, 448, 230, { color: COLORS.orange });
  c.arrow(500, 226, 528, 182, { color: COLORS.orange });
  c.arrow(400, 110, 526, 162, { color: COLORS.text });
  c.arrow(556, 170, 588, 170, { color: COLORS.text });
  c.text(30, 300, `MiniMind's 768 × 768 q_proj: W has ${layer.toLocaleString("en")} numbers; a rank-${r} adapter ${adapter.toLocaleString("en")} (${fmt((100 * adapter) / layer, 1)}%).`, { size: 12 });
  c.text(30, 322, "Merge after training: W' = W + (α/r)·B·A has W's shape; the detour disappears (merge_lora).", { size: 12 });
  const m = merged.map((row) => `(${row.map((v) => fmt(v, 1)).join(", ")})`).join(", ");
  c.text(30, 344, `Worked example (α = 2, r = 1): W' = ${m}, from mergeLora.`, { size: 12, fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-18-lora.svg", lesson: 18, render: loraDiagram, uses: ["lesson-18/mergeLora"] }];
