/** Lesson 13: a router sending tokens to their top-k experts, and the load it puts on each expert. */
import { COLORS, Canvas, PALETTE, axes, fmt } from "../../lib/svg-diagrams.js";
import { normal, seeded, softmax, type Figure } from "../figures/figure.js";

const WORDS = ["The", "cat", "sat", "on", "the", "mat"];

export function moeRouting(E = 4, k = 2, alpha = 5e-4): string {
  const rand = seeded(13);
  const N = WORDS.length;
  // p = softmax(W_r x) for each token: random router logits stand in for W_r x.
  const probs = WORDS.map(() => softmax(Array.from({ length: E }, () => 1.4 * normal(rand))));
  const routes = probs.map((p) => {
    const top = p.map((v, e) => [v, e] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, k);
    const sum = top.reduce((s, [v]) => s + v, 0);
    return top.map(([v, e]) => ({ expert: e, weight: v / (sum + 1e-20) })); // norm_topk_prob
  });
  const f = Array.from({ length: E }, (_, e) => routes.filter((r) => r.some((x) => x.expert === e)).length / N);
  const pBar = Array.from({ length: E }, (_, e) => probs.reduce((s, p) => s + p[e]!, 0) / N);
  const aux = alpha * E * f.reduce((s, fe, e) => s + fe * pBar[e]!, 0);
  const W = 700;
  const H = 410;
  const c = new Canvas(W, H).title(`Mixture of experts: each token goes to its top-${k} of ${E} experts`, "arrow width: the token's renormalised weight wₑ (norm_topk_prob); router logits drawn at random");
  const tx = 24;
  const ax0 = 196;
  const ex = 340;
  const rowT = (i: number) => 70 + i * 46;
  const rowE = (e: number) => 84 + e * 66;
  for (let e = 0; e < E; e++) c.box(ex, rowE(e), 90, 40, [`expert ${e}`, `FFN${"₀₁₂₃₄₅₆₇"[e] ?? ""}`], { fill: COLORS.lightOrange, stroke: PALETTE[e]!, strokeWidth: 2 });
  routes.forEach((r, i) => {
    const y = rowT(i) + 16;
    c.box(tx, rowT(i), 64, 32, `"${WORDS[i]}"`, { fill: COLORS.lightBlue, stroke: COLORS.blue });
    r.forEach(({ expert, weight }, j) => {
      c.text(tx + 72 + j * 58, y + 4, `e${expert}: ${fmt(weight, 2)}`, { fill: PALETTE[expert]!, weight: "bold", size: 11 });
      const ye = rowE(expert) + 20;
      c.arrow(ax0, y, ex - 3, ye, { color: PALETTE[expert]!, width: 1 + 5 * weight });
    });
  });
  // Load per expert: share of tokens routed there and mean router probability.
  const ax = axes(c, { left: 500, top: 84, width: 180, height: 210, x: [-0.5, E - 0.5], y: [0, 1], xTicks: Array.from({ length: E }, (_, e) => e), yTicks: [0, 0.25, 0.5, 0.75, 1], xLabel: "expert e", title: "load per expert" });
  for (let e = 0; e < E; e++) {
    c.rect(ax.sx(e) - 17, ax.sy(f[e]!), 16, ax.sy(0) - ax.sy(f[e]!), { fill: PALETTE[e]!, stroke: "#333333" });
    c.rect(ax.sx(e) + 1, ax.sy(pBar[e]!), 16, ax.sy(0) - ax.sy(pBar[e]!), { fill: "#ffffff", stroke: PALETTE[e]!, strokeWidth: 2 });
  }
  c.line(ax.sx(-0.5), ax.sy(k / E), ax.sx(E - 0.5), ax.sy(k / E), { stroke: COLORS.text, dash: "5 3" });
  c.text(ax.sx(E - 0.5) - 2, ax.sy(k / E) - 4, `even: k/E = ${fmt(k / E, 2)}`, { anchor: "end", size: 11 });
  c.legend(470, H - 44, [
    { label: "fₑ: share of tokens routed to e", color: COLORS.grey },
    { label: "P̄ₑ: mean router probability", color: "#ffffff" },
  ]);
  c.text(tx, H - 40, `L_aux = α·E·Σₑ fₑ·P̄ₑ = ${aux.toExponential(2).replace("e-", "e−")}`, {});
  c.text(tx, H - 22, `(α = ${alpha.toExponential(0).replace("e-", "e−")}; perfectly even routing gives α·k = ${(alpha * k).toExponential(0).replace("e-", "e−")})`, { fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-13-moe-routing.svg", lesson: 13, render: () => moeRouting() }];
