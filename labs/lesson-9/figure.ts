/** Lesson 9: the pre-norm residual stream through one block. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

export function residualStream(): string {
  const W = 700;
  const H = 300;
  const c = new Canvas(W, H).title("The residual stream: each sub-layer reads a normalised copy and adds its result back", "one MiniMind block (pre-norm); the stream itself is never normalised inside the block");
  const y = 170;
  const xs = { in: 40, add1: 340, add2: 600, out: 670 };
  // The stream: a thick line left to right.
  c.arrow(xs.in, y, xs.out, y, { color: COLORS.blue, width: 4 });
  c.text(xs.in, y + 24, "x (embedding,", { fill: COLORS.blue, weight: "bold" });
  c.text(xs.in, y + 38, "or the previous block)", { fill: COLORS.blue, size: 11 });
  c.text(xs.out, y + 24, "to the next", { anchor: "end", fill: COLORS.blue, weight: "bold" });
  c.text(xs.out, y + 38, "block", { anchor: "end", fill: COLORS.blue, weight: "bold" });
  const branch = (from: number, add: number, norm: string, layer: string) => {
    const top = 70;
    c.arrow(from, y - 3, from, top + 66, { color: COLORS.text });
    c.box(from - 58, top + 30, 116, 34, norm, { fill: COLORS.lightPurple, stroke: COLORS.purple });
    c.line(from, top + 30, from, top + 20, { stroke: COLORS.text });
    c.line(from, top + 20, from + 60, top + 20, { stroke: COLORS.text });
    c.box(from + 60, top + 4, 110, 34, layer, { fill: COLORS.lightOrange, stroke: COLORS.orange });
    c.line(from + 170, top + 20, add, top + 20, { stroke: COLORS.text });
    c.arrow(add, top + 20, add, y - 14, { color: COLORS.text });
    c.circle(add, y, 12, { fill: "#ffffff", stroke: COLORS.text, strokeWidth: 1.5 });
    c.text(add, y + 5, "+", { anchor: "middle", size: 16, weight: "bold" });
  };
  branch(110, xs.add1, "RMSNorm (γ₁)", "attention");
  branch(400, xs.add2, "RMSNorm (γ₂)", "feed-forward");
  c.text(W / 2, y + 64, "h = x + Attn(RMSNorm(x)),   out = h + FFN(RMSNorm(h))", { anchor: "middle", size: 13, family: "monospace" });
  c.text(W / 2, y + 88, "RMSNorm(x) = γ ⊙ x / √(mean(x²) + ε): no mean subtracted, no bias", { anchor: "middle", fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-09-residual-stream.svg", lesson: 9, render: residualStream }];
