/** Lesson 12: RoPE's half-split pairs and the KV cache growing over decode steps. */
import { COLORS, Canvas, PALETTE, fmt } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

/** Head size and base of the pairing picture (MiniMind's rope_theta). */
const D = 8;
const BASE = 1e6;

const SUB = ["₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇"];
/** Three decimals, or one significant digit in scientific notation below 0.01. */
const sci = (x: number) => (x >= 0.01 ? fmt(x, 3) : x.toExponential(1).replace("e-", "e−"));

export function ropePairs(): string {
  const W = 700;
  const H = 390;
  const c = new Canvas(W, H).title(`RoPE turns dimension j together with j + D/2 (D = ${D})`, `one head; pair i turns by p·fᵢ at position p, with fᵢ = θ^(−2i/D), θ = 10⁶`);
  const half = D / 2;
  const cell = 62;
  const x0 = (W - cell * D) / 2;
  const yRow = 150;
  const colorOf = (j: number) => PALETTE[j % half]!;
  // Arcs above the row: j with j + D/2.
  for (let i = 0; i < half; i++) {
    const a = x0 + i * cell + cell / 2;
    const b = x0 + (i + half) * cell + cell / 2;
    const lift = 28 + i * 16;
    c.raw(`<path d="M${a},${yRow} C${a},${yRow - lift - 20} ${b},${yRow - lift - 20} ${b},${yRow}" fill="none" stroke="${colorOf(i)}" stroke-width="2"/>`);
  }
  // Labels on the arcs' tops, on white so that other arcs do not cross them.
  for (let i = 0; i < half; i++) {
    const mid = x0 + (i + half / 2) * cell + cell / 2;
    const apex = yRow - 0.75 * (28 + i * 16 + 20);
    c.rect(mid - 24, apex - 9, 48, 16, { fill: "#ffffff" });
    c.text(mid, apex + 4, `pair ${i}`, { anchor: "middle", fill: colorOf(i), weight: "bold" });
  }
  for (let j = 0; j < D; j++) {
    c.rect(x0 + j * cell, yRow, cell, 34, { fill: "#ffffff", stroke: colorOf(j), strokeWidth: 2.5 });
    c.text(x0 + j * cell + cell / 2, yRow + 22, `x${j}`, { anchor: "middle", weight: "bold" });
  }
  // Halves.
  const yb = yRow + 46;
  c.line(x0 + 4, yb, x0 + half * cell - 4, yb, { stroke: COLORS.muted });
  c.line(x0 + half * cell + 4, yb, x0 + D * cell - 4, yb, { stroke: COLORS.muted });
  c.text(x0 + (half * cell) / 2, yb + 16, "first half x₁", { anchor: "middle", fill: COLORS.muted });
  c.text(x0 + half * cell * 1.5, yb + 16, "second half x₂   (rotate_half gives [−x₂, x₁])", { anchor: "middle", fill: COLORS.muted });
  // One dial a pair: where the pair's 2-D vector points at positions 0..7.
  const positions = [0, 1, 2, 3, 4, 5, 6, 7];
  const r = 38;
  const yd = 300;
  c.text(W / 2, yd - r - 16, `each pair (xᵢ, xᵢ₊₄) as a 2-D vector, at positions p = 0 … ${positions.length - 1} (darker = later)`, { anchor: "middle" });
  for (let i = 0; i < half; i++) {
    const f = 1 / BASE ** ((2 * i) / D);
    const cx = x0 + i * 2 * cell + cell;
    c.circle(cx, yd, r, { stroke: "#bbbbbb", fill: "none" });
    c.line(cx - r - 4, yd, cx + r + 4, yd, { stroke: COLORS.faint });
    c.line(cx, yd - r - 4, cx, yd + r + 4, { stroke: COLORS.faint });
    for (const p of positions) {
      const phi = p * f;
      const t = 0.25 + (0.75 * p) / (positions.length - 1);
      c.line(cx, yd, cx + r * Math.cos(phi), yd - r * Math.sin(phi), { stroke: colorOf(i), strokeWidth: 1.5, opacity: t });
      c.circle(cx + r * Math.cos(phi), yd - r * Math.sin(phi), 3.2, { fill: colorOf(i), opacity: t });
    }
    c.text(cx, yd + r + 18, `pair ${i}: f${SUB[i]} = ${sci(f)}`, { anchor: "middle", fill: colorOf(i), weight: "bold" });
    c.text(cx, yd + r + 33, `at p = ${positions.length - 1}: ${sci((positions.length - 1) * f)} rad`, { anchor: "middle", fill: COLORS.muted, size: 11 });
  }
  return c.toString();
}

/** Prompt of S tokens, then `steps` decode passes. */
export function kvCache(S = 4, steps = 4): string {
  const total = S + steps;
  const W = 700;
  const rowH = 40;
  const top = 92;
  const H = top + (steps + 1) * rowH + 78;
  const c = new Canvas(W, H).title("The KV cache grows by one position a decode step", `a ${S}-token prompt, then ${steps} generated tokens; one layer's keys and values`);
  const cell = 32;
  const gx = 100;
  c.text(gx + (total * cell) / 2, top - 10, "key/value positions", { anchor: "middle", fill: COLORS.muted });
  for (let p = 0; p < total; p++) c.text(gx + p * cell + cell / 2, top + 4, String(p), { anchor: "middle", fill: COLORS.muted, size: 11 });
  const tx = gx + total * cell + 14;
  c.text(tx, top - 10, "fed", { weight: "bold" });
  c.text(tx + 92, top - 10, "P", { weight: "bold" });
  c.text(tx + 122, top - 10, "keys read", { weight: "bold" });
  c.text(tx + 196, top - 10, "K/V computed", { weight: "bold" });
  c.text(tx + 196, top + 4, "cached", { fill: COLORS.muted, size: 11 });
  c.text(tx + 246, top + 4, "no cache", { fill: COLORS.muted, size: 11 });
  for (let s = 0; s <= steps; s++) {
    const y = top + 12 + s * rowH;
    const past = s === 0 ? 0 : S + s - 1; // positions already cached when this pass starts
    const fed = s === 0 ? S : 1;
    const end = past + fed;
    c.text(gx - 8, y + 22, s === 0 ? "prefill" : `step ${s}`, { anchor: "end", weight: "bold" });
    for (let p = 0; p < total; p++) {
      const x = gx + p * cell;
      if (p < past) c.rect(x + 1, y + 1, cell - 2, rowH - 10, { fill: COLORS.lightBlue, stroke: COLORS.blue });
      else if (p < end) c.rect(x + 1, y + 1, cell - 2, rowH - 10, { fill: COLORS.orange, stroke: "#b35900" });
      else c.rect(x + 1, y + 1, cell - 2, rowH - 10, { fill: "#ffffff", stroke: COLORS.faint, dash: "3 3" });
    }
    // The query of the last fed position.
    c.text(gx + (end - 1) * cell + cell / 2, y + 20, "q", { anchor: "middle", weight: "bold", fill: "#ffffff" });
    c.text(tx, y + 20, s === 0 ? `ids[:, 0:${S}]` : `ids[:, ${past}:]`, { family: "monospace" });
    c.text(tx + 92, y + 20, String(past));
    c.text(tx + 122, y + 20, String(end));
    c.text(tx + 196, y + 20, String(fed));
    c.text(tx + 246, y + 20, String(end));
  }
  const ly = top + 12 + (steps + 1) * rowH + 14;
  c.legend(gx, ly, [
    { label: "read from the cache (computed in an earlier pass)", color: COLORS.lightBlue },
    { label: "computed in this pass, then appended", color: COLORS.orange },
  ]);
  c.text(gx + 340, ly + 4, "q: the query that predicts the next token,", { fill: COLORS.muted });
  c.text(gx + 340, ly + 22, "rotated by RoPE row cos[P], at position P", { fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [
  { file: "lesson-12-rope-pairs.svg", lesson: 12, render: ropePairs },
  { file: "lesson-12-kv-cache.svg", lesson: 12, render: () => kvCache() },
];
