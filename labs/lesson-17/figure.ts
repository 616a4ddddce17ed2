/** Lesson 17: MiniMind's stages, chained by weight names, and each stage's default learning rate. */
import { COLORS, Canvas, PALETTE, fmt } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

/** Each script's --from_weight, --save_weight and --learning_rate defaults at d65ef2c (file:line of the lr). */
const STAGES = [
  { script: "train_pretrain.py", from: "none", save: "pretrain", lr: 5e-4, at: "89" },
  { script: "train_full_sft.py", from: "pretrain", save: "full_sft", lr: 1e-5, at: "90" },
  { script: "train_lora.py", from: "full_sft", save: "lora_medical (adapter)", lr: 1e-4, at: "84" },
  { script: "train_distillation.py", from: "full_sft (teacher, student)", save: "full_dist", lr: 5e-6, at: "153" },
  { script: "train_dpo.py", from: "full_sft", save: "dpo", lr: 4e-8, at: "137" },
  { script: "train_grpo.py", from: "full_sft", save: "grpo", lr: 3e-7, at: "212" },
];

export function stageChain(): string {
  const W = 700;
  const H = 390;
  const c = new Canvas(W, H).title("Stages hand over weights by name: {save_weight}_{hidden_size}.pth", "MiniMind's default --from_weight, --save_weight and --learning_rate of each trainer script");
  const lo = Math.log10(1e-8);
  const hi = Math.log10(1e-3);
  const barX = 420;
  const barW = 170;
  const sx = (lr: number) => barX + ((Math.log10(lr) - lo) / (hi - lo)) * barW;
  STAGES.forEach((s, i) => {
    const y = 76 + i * 46;
    c.box(20, y, 170, 34, s.script, { fill: i === 0 ? COLORS.lightBlue : COLORS.lightOrange, stroke: PALETTE[i % PALETTE.length]! });
    c.text(200, y + 14, `from: ${s.from}`, { size: 11 });
    c.text(200, y + 28, `saves: ${s.save}`, { size: 11, fill: COLORS.muted });
    c.rect(barX, y + 8, sx(s.lr) - barX, 18, { fill: PALETTE[i % PALETTE.length]!, stroke: "#333333" });
    c.text(sx(s.lr) + 6, y + 22, `${s.lr.toExponential(0).replace("e-", "e−")}  (:${s.at})`, { size: 11 });
  });
  for (const p of [-8, -6, -4]) {
    c.line(sx(10 ** p), 70, sx(10 ** p), 70 + STAGES.length * 46 - 8, { stroke: COLORS.grey, dash: "3 3" });
    c.text(sx(10 ** p), 66, `1e−${-p}`, { size: 10, anchor: "middle", fill: COLORS.muted });
  }
  c.text(W - 20, 53, "learning rate (log scale)", { size: 11, weight: "bold", anchor: "end" });
  c.text(20, H - 24, `SFT's rate is ${fmt(5e-4 / 1e-5, 0)}× smaller than pretraining's: it adjusts weights that already work, on far less data.`, { size: 12 });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-17-stage-chain.svg", lesson: 17, render: stageChain }];
