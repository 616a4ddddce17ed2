/** Lesson 28: the capstone's pipeline, drawn from lib/capstone/stages.ts (what `npm run capstone` runs). */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { CAPSTONE_STAGES } from "../../lib/capstone/stages.js";
import type { Figure } from "../figures/figure.js";

export function pipeline(): string {
  const W = 720;
  const H = 330;
  const c = new Canvas(W, H).title("npm run capstone: one command, stage by stage", "each box is one run of npm run train (the tokenizer runs in the capstone itself); arrows carry weights (--from)");
  const main = ["tokenizer", ...CAPSTONE_STAGES.filter((s) => !s.optional).map((s) => s.name)];
  // Left to right by the stage they start from, so their arrows do not cross.
  const optional = CAPSTONE_STAGES.filter((s) => s.optional).sort((a, b) => main.indexOf(a.from ?? "sft") - main.indexOf(b.from ?? "sft"));
  const bw = 120;
  const bh = 54;
  const y = 90;
  const xs = main.map((_, i) => 20 + i * 140);
  const label: Record<string, string[]> = {
    tokenizer: ["tokenizer", "lesson 4 bpeTrain"],
    pretrain: ["pretrain", "lessons 6-15"],
    sft: ["SFT", "lessons 5, 16-17"],
    "task-sft": ["task SFT", "sort: 300 steps"],
    grpo: ["GRPO", "lessons 24-25"],
    dpo: ["DPO (--with dpo)", "lessons 21-22"],
    agent: ["agent (--with agent)", "lesson 26"],
  };
  main.forEach((name, i) => {
    c.box(xs[i], y, bw, bh, label[name] ?? [name], { fill: name === "tokenizer" ? COLORS.lightGrey : "#cfe3f6", stroke: "#7a9cc6", rx: 6 });
    if (i > 0) c.arrow(xs[i - 1] + bw, y + bh / 2, xs[i] - 4, y + bh / 2, { color: COLORS.text });
  });
  optional.forEach((s, j) => {
    const fromX = xs[main.indexOf(s.from ?? "sft")];
    const ox = 190 + j * 240;
    const oy = 200;
    c.box(ox, oy, 160, bh, label[s.name] ?? [s.name], { fill: "#fde3c8", stroke: "#d6a36b", rx: 6, dash: "5 3" });
    c.arrow(fromX + bw / 2, y + bh, ox + 80, oy - 2, { color: COLORS.muted, dash: "5 3" });
  });
  c.text(30, 290, "Every stage writes run.json, curves and weights into capstone/<stage>/; a stage whose run.json and weights exist is reused.", { size: 12, fill: COLORS.text });
  c.text(30, 310, "After each stage the same fixed prompts are generated, and capstone/report.html is rewritten.", { size: 12, fill: COLORS.text });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-28-pipeline.svg", lesson: 28, render: pipeline }];
