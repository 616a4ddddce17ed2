/** Lesson 3: what temperature and top-p do to the next-token distribution. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, PALETTE, axes, fmt } from "../../lib/svg-diagrams.js";
import { lessonFunction, normal, seeded, type Figure } from "../figures/figure.js";

type Filtered = (logits: tf.Tensor1D, opts: { temperature?: number; topK?: number; topP?: number }) => tf.Tensor;

const WORDS = ["cat", "dog", "sat", "the", "ran", "on", "mat", "up"];

export async function samplingFilters(): Promise<string> {
  const filtered = await lessonFunction<Filtered>(3, "filteredProbabilities");
  const rand = seeded(3);
  const logits = WORDS.map(() => 1.3 * normal(rand)).sort((a, b) => b - a);
  const probs = (opts: { temperature?: number; topK?: number; topP?: number }): number[] =>
    tf.tidy(() => Array.from(filtered(tf.tensor1d(logits), { topK: 0, topP: 1, ...opts }).dataSync()));
  const temps = [0.5, 1, 2];
  const byT = temps.map((t) => probs({ temperature: t }));
  const TOP_P = 0.8;
  const before = probs({ temperature: 1 });
  const after = probs({ temperature: 1, topP: TOP_P });
  const kept = after.filter((p) => p > 0).length;
  const W = 700;
  const H = 372;
  const c = new Canvas(W, H).title("Sampling: temperature reshapes the distribution, top-p cuts its tail", `${WORDS.length} candidate tokens with fixed random logits; probabilities from filteredProbabilities (top-k off)`);
  const V = WORDS.length;
  const yMax = Math.ceil(Math.max(...byT.flat(), ...after) * 10) / 10;
  const left = axes(c, { left: 64, top: 76, width: 280, height: 200, x: [-0.5, V - 0.5], y: [0, yMax], xTicks: [], yTicks: 5, yLabel: "probability", title: "temperature T (softmax(z / T))" });
  const right = axes(c, { left: 404, top: 76, width: 280, height: 200, x: [-0.5, V - 0.5], y: [0, yMax], xTicks: [], yTicks: 5, title: `top-p = ${TOP_P} at T = 1` });
  for (const ax of [left, right]) WORDS.forEach((w, i) => c.text(ax.sx(i), 76 + 200 + 15, w, { anchor: "middle", size: 11 }));
  const bw = 9;
  byT.forEach((ps, s) =>
    ps.forEach((p, i) => {
      const x = left.sx(i) + (s - 1) * (bw + 1) - bw / 2;
      c.rect(x, left.sy(p), bw, left.sy(0) - left.sy(p), { fill: PALETTE[s]!, stroke: "#333333", strokeWidth: 0.5 });
    }),
  );
  before.forEach((p, i) => {
    c.rect(right.sx(i) - 12, right.sy(p), 12, right.sy(0) - right.sy(p), { fill: "#ffffff", stroke: COLORS.grey, strokeWidth: 1.5 });
    if (after[i]! > 0) c.rect(right.sx(i), right.sy(after[i]!), 12, right.sy(0) - right.sy(after[i]!), { fill: COLORS.blue, stroke: "#333333", strokeWidth: 0.5 });
  });
  const cut = (right.sx(kept - 1) + right.sx(kept)) / 2;
  c.line(cut, 76, cut, 276, { stroke: COLORS.red, dash: "5 3", strokeWidth: 1.5 });
  const mass = before.slice(0, kept).reduce((a, b) => a + b, 0);
  c.text(cut - 4, 92, `the ${kept} most likely hold ${fmt(mass, 2)} ≥ ${TOP_P}:`, { fill: COLORS.red, size: 11, anchor: "end" });
  c.text(cut - 4, 106, "kept; the rest are dropped", { fill: COLORS.red, size: 11, anchor: "end" });
  const ly = H - 48;
  c.legend(64, ly, temps.map((t, s) => ({ label: `T = ${t}${t < 1 ? " (sharper)" : t > 1 ? " (flatter)" : ""}`, color: PALETTE[s]! })));
  c.legend(404, ly, [
    { label: "before the filter (T = 1)", color: "#ffffff" },
    { label: "after: renormalised over the kept tokens", color: COLORS.blue },
  ]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-03-sampling.svg", lesson: 3, render: samplingFilters, uses: ["lesson-3/filteredProbabilities"] }];
