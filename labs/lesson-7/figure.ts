/** Lesson 7: trainer/train_pretrain.py as a pipeline, and where npm run train saves and resumes. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

export function pretrainLoop(): string {
  const W = 700;
  const H = 360;
  const c = new Canvas(W, H).title("One pretraining run, in the order of train_pretrain.py", "what runs once (top), what runs every micro-batch (the loop), and what a checkpoint holds");
  const top = 66;
  const once = ["arguments", "config", "resume state?", "model + AdamW", "data + order"];
  once.forEach((label, i) => {
    const x = 20 + i * 136;
    c.box(x, top, 118, 38, label, { fill: label === "resume state?" ? "#fde8c8" : COLORS.lightGrey });
    if (i > 0) c.arrow(x - 18, top + 19, x - 2, top + 19);
  });
  const loopY = 150;
  const loop = ["lr = cosineLr(step)", "loss / K, backward", "step K? clip, AdamW", "log, held-out", "save every N"];
  c.rect(14, loopY - 22, W - 28, 92, { fill: "none", stroke: COLORS.blue, dash: "6 4", rx: 8 });
  c.text(24, loopY - 8, "for each batch of skipBatches(order, B, start):", { fill: COLORS.blue, weight: "bold" });
  loop.forEach((label, i) => {
    const x = 20 + i * 136;
    c.box(x, loopY + 6, 118, 38, label, { fill: "#dbe9f6" });
    if (i > 0) c.arrow(x - 18, loopY + 25, x - 2, loopY + 25);
  });
  c.curvedArrow(20 + 4 * 136 + 59, loopY + 44, 20 + 59, loopY + 44, -26, { color: COLORS.blue });
  c.arrow(20 + 2 * 136 + 59, top + 38, 20 + 2 * 136 + 59, loopY - 22, { color: COLORS.muted });
  const fy = 268;
  c.box(40, fy, 290, 62, ["pretrain_128.safetensors", "weights only, MiniMind's names → the next stage"], { fill: "#e3f1e3" });
  c.box(370, fy, 300, 62, ["pretrain_128_resume.safetensors", "weights, AdamW m and v, step, data position"], { fill: "#fde8c8" });
  c.arrow(20 + 4 * 136 + 59, loopY + 44, 520, fy, { color: COLORS.orange });
  c.arrow(20 + 4 * 136 + 40, loopY + 44, 185, fy, { color: COLORS.green });
  c.curvedArrow(670, fy + 20, 20 + 2 * 136 + 118, top + 30, 60, { color: COLORS.orange, dash: "5 4" });
  c.text(W - 16, 124, "--resume", { anchor: "end", fill: COLORS.orange, weight: "bold" });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-07-pretrain-loop.svg", lesson: 7, render: pretrainLoop }];
