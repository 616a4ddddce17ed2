/** Lesson 2: what one record of each stage's data looks like, and where each backend runs. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

export function dataAndBackends(): string {
  const W = 700;
  const H = 420;
  const c = new Canvas(W, H).title("Data records by stage, and the backends that run them", "one jsonl line each (MiniMind's dataset/lm_dataset.py @ d65ef2c); checkpoints named {weight}_{hidden}[_moe]");
  const records: Array<[string, string, string]> = [
    ["pretrain", '{"text": "The cat sat on the mat."}', "pretrain_768.pth"],
    ["SFT", '{"conversations": [{"role": "user", …}, …]}', "full_sft_768.pth"],
    ["DPO", '{"chosen": [messages…], "rejected": [messages…]}', "dpo_768.pth"],
    ["PPO / GRPO", '{"conversations": [prompt messages…]}  (answers sampled)', "ppo_actor_768.pth"],
    ["agent RL", '{"conversations": [… tools …], "gt": "expected answer"}', "agent_768.pth"],
  ];
  records.forEach(([stage, rec, ckp], i) => {
    const y = 62 + i * 40;
    c.box(20, y, 96, 30, stage, { fill: COLORS.lightBlue, text: { size: 12, weight: "bold" } });
    c.text(128, y + 19, rec, { size: 11, family: "monospace" });
    c.text(W - 20, y + 19, ckp, { size: 11, family: "monospace", fill: COLORS.muted, anchor: "end" });
  });
  const top = 290;
  c.text(20, top, "Backends (COURSE_BACKEND)", { size: 13, weight: "bold" });
  const backends: Array<[string, string, string]> = [
    ["cpu", "pure JavaScript, exact", "grading"],
    ["wasm", "SIMD WebAssembly, one core", "labs, training, serving"],
    ["tensorflow", "libtensorflow, CUDA optional", "a learner's GPU (optional)"],
  ];
  backends.forEach(([name, what, use], i) => {
    const x = 20 + i * 228;
    c.box(x, top + 14, 214, 64, [name, what, `used for: ${use}`], { fill: i === 2 ? COLORS.lightGrey : COLORS.lightGreen, text: { size: 11 } });
  });
  c.text(W / 2, top + 110, "npm run doctor starts each backend and times a matMul on it", { anchor: "middle", size: 12, fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-02-data-and-backends.svg", lesson: 2, render: dataAndBackends }];
