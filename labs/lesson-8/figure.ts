/** Lesson 8: where MiniMind's parameters live, dense and MoE, total and active. */
import { COLORS, Canvas, PALETTE, axes, fmt } from "../../lib/svg-diagrams.js";
import { miniMindConfig, type MiniMindConfig } from "../../lib/model/config.js";
import { lessonFunction, type Figure } from "../figures/figure.js";

interface ParamCount {
  total: number;
  embedding: number;
  attention: number;
  feedForward: number;
  norms: number;
  experts?: number;
  active: number;
}
type CountParams = (config: MiniMindConfig) => ParamCount;

export async function paramBreakdown(): Promise<string> {
  const countParams = await lessonFunction<CountParams>(8, "countParams");
  const dense = countParams(miniMindConfig());
  const moeConfig = miniMindConfig({ useMoe: true });
  const moe = countParams(moeConfig);
  const parts = ["embedding", "attention", "feedForward", "norms"] as const;
  const names = { embedding: "embedding (tied with lm_head)", attention: "attention q, k, v, o", feedForward: "feed-forward (SwiGLU / router + experts)", norms: "RMSNorm gains" };
  const unused = moe.total - moe.active;
  const bars = [
    { label: "dense (default)", counts: dense, ff: dense.feedForward },
    { label: "MoE: stored", counts: moe, ff: moe.feedForward },
    { label: "MoE: one token uses", counts: moe, ff: moe.feedForward - unused },
  ];
  const W = 700;
  const H = 316;
  const c = new Canvas(W, H).title("Where MiniMind's parameters are", `countParams on MiniMind's config (H = ${moeConfig.hiddenSize}, L = ${moeConfig.numHiddenLayers}, V = ${moeConfig.vocabSize}; MoE: E = ${moeConfig.numExperts}, k = ${moeConfig.numExpertsPerTok})`);
  const M = 1e6;
  const xMax = Math.ceil((1.12 * moe.total) / M / 50) * 50;
  const ax = axes(c, { left: 150, top: 64, width: 520, height: 150, x: [0, xMax], y: [0, 3], xTicks: 5, yTicks: [], xLabel: "parameters (millions)" });
  bars.forEach((b, i) => {
    const y = ax.sy(2.5 - i) - 16;
    c.text(142, y + 20, b.label, { anchor: "end", weight: "bold" });
    let x = 0;
    parts.forEach((p, j) => {
      const v = p === "feedForward" ? b.ff : b.counts[p];
      c.rect(ax.sx(x / M), y, ax.sx((x + v) / M) - ax.sx(x / M), 32, { fill: PALETTE[j]!, stroke: "#ffffff", strokeWidth: 0.5 });
      x += v;
    });
    c.text(ax.sx(x / M) + 6, y + 20, `${fmt(x / M, 1)}M`, { weight: "bold" });
  });
  c.legend(150, H - 48, parts.slice(0, 2).map((p, j) => ({ label: `${names[p]}`, color: PALETTE[j]! })));
  c.legend(400, H - 48, parts.slice(2).map((p, j) => ({ label: `${names[p]}${p === "norms" ? `: ${fmt(dense.norms / 1e3, 1)}K, too thin to see` : ""}`, color: PALETTE[j + 2]! })));
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-08-param-breakdown.svg", lesson: 8, render: paramBreakdown, uses: ["lesson-8/countParams"] }];
