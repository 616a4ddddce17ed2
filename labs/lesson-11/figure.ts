/** Lesson 11: the causal mask over cached and new keys, and grouped-query attention's head sharing. */
import * as tf from "../../lib/tf.js";
import { COLORS, Canvas, PALETTE, fmt, shade } from "../../lib/svg-diagrams.js";
import { lessonFunction, normal, seeded, softmax, type Figure } from "../figures/figure.js";

/** P cached positions, S new queries: T = P + S keys. */
export function causalMask(P = 2, S = 4): string {
  const T = P + S;
  const rand = seeded(11);
  const scores = Array.from({ length: S }, () => Array.from({ length: T }, () => normal(rand)));
  // m_ij = −∞ when j > P + i; the softmax runs over each query's row of keys.
  const visible = (i: number, j: number) => j <= P + i;
  const weights = scores.map((row, i) => {
    const keep = row.map((_, j) => visible(i, j));
    const p = softmax(row.filter((_, j) => keep[j]));
    let k = 0;
    return keep.map((v) => (v ? p[k++]! : 0));
  });
  const W = 640;
  const cell = 56;
  const left = 170;
  const top = 96;
  const H = top + S * cell + 70;
  const c = new Canvas(W, H).title("The causal mask with a cache: query i reads keys j ≤ P + i", `P = ${P} cached positions, S = ${S} new queries, T = ${T} keys; cells: softmax weights of random scores`);
  c.text(left + (T * cell) / 2, top - 26, "keys (positions j)", { anchor: "middle", weight: "bold" });
  for (let j = 0; j < T; j++) c.text(left + j * cell + cell / 2, top - 8, j < P ? `${j} (cache)` : String(j), { anchor: "middle", fill: j < P ? COLORS.blue : COLORS.text, size: 11 });
  c.text(left - 96, top + (S * cell) / 2, "new queries", { anchor: "middle", weight: "bold", rotate: -90 });
  for (let i = 0; i < S; i++) {
    c.text(left - 10, top + i * cell + cell / 2 + 4, `i = ${i} (pos ${P + i})`, { anchor: "end", size: 11 });
    for (let j = 0; j < T; j++) {
      const x = left + j * cell;
      const y = top + i * cell;
      if (visible(i, j)) {
        const w = weights[i]![j]!;
        c.rect(x, y, cell, cell, { fill: shade(0.15 + 0.85 * w), stroke: "#ffffff" });
        c.text(x + cell / 2, y + cell / 2 + 4, fmt(w, 2), { anchor: "middle", fill: w > 0.45 ? "#ffffff" : COLORS.text });
      } else {
        c.rect(x, y, cell, cell, { fill: "#d9d9d9", stroke: "#ffffff" });
        c.text(x + cell / 2, y + cell / 2 + 4, "−∞", { anchor: "middle", fill: COLORS.muted });
      }
    }
  }
  // The cached block and the triangle over the last S columns.
  c.rect(left, top, P * cell, S * cell, { stroke: COLORS.blue, strokeWidth: 2.5, dash: "6 3" });
  c.rect(left + P * cell, top, S * cell, S * cell, { stroke: "#333333", strokeWidth: 1.5 });
  const ly = top + S * cell + 24;
  c.legend(left, ly, [{ label: "masked: weight 0 (j > P + i)", color: "#d9d9d9" }]);
  c.legend(left + 220, ly, [{ label: "cached keys: every query reads them", color: COLORS.lightBlue }]);
  c.text(left, ly + 26, "each row sums to 1; the triangle covers the last S columns", { fill: COLORS.muted });
  return c.toString();
}

type RepeatKv = (x: tf.Tensor4D, nRep: number) => tf.Tensor4D;

/** Which key/value head each query head reads, found by running repeatKv on head indices. */
export async function gqaSharing(hq = 8, hkv = 2): Promise<string> {
  const repeatKv = await lessonFunction<RepeatKv>(11, "repeatKv");
  const nRep = hq / hkv;
  // One position, D = 1: kv head h holds the number h, so the repeat shows where each one lands.
  const readBy = tf.tidy(() => Array.from(repeatKv(tf.tensor4d(Array.from({ length: hkv }, (_, h) => h), [1, 1, hkv, 1]), nRep).dataSync()));
  const W = 640;
  const H = 300;
  const c = new Canvas(W, H).title(`Grouped-query attention: ${hq} query heads share ${hkv} key/value heads`, `n_rep = H_q / H_kv = ${nRep}; the mapping below is repeatKv's output on head indices`);
  const qw = 58;
  const qx0 = (W - hq * (qw + 10)) / 2;
  const yq = 90;
  const yk = 214;
  const kw = 150;
  const kGap = (W - hkv * kw) / (hkv + 1);
  const kx = (h: number) => kGap + h * (kw + kGap);
  for (let h = 0; h < hkv; h++) {
    c.box(kx(h), yk, kw, 40, [`K/V head ${h}`, "cached once"], { fill: COLORS.lightOrange, stroke: PALETTE[h % PALETTE.length]!, strokeWidth: 2 });
  }
  for (let q = 0; q < hq; q++) {
    const x = qx0 + q * (qw + 10);
    const kvh = readBy[q]!;
    const color = PALETTE[kvh % PALETTE.length]!;
    c.arrow(x + qw / 2, yq + 34, kx(kvh) + kw / 2 + (q % nRep - (nRep - 1) / 2) * 22, yk - 3, { color, width: 1.6 });
    c.box(x, yq, qw, 32, `q head ${q}`, { fill: COLORS.lightBlue, stroke: color, strokeWidth: 2, text: { size: 11 } });
    c.text(x + qw / 2, yq - 8, `⌊${q}/${nRep}⌋ = ${kvh}`, { anchor: "middle", fill: COLORS.muted, size: 11 });
  }
  c.text(W / 2, H - 14, `the cache holds ${hkv} heads instead of ${hq}: ${fmt(hq / hkv, 0)}× less memory; order is [a, a, …, b, b, …], not [a, b, a, b]`, { anchor: "middle" });
  return c.toString();
}

export const figures: Figure[] = [
  { file: "lesson-11-causal-mask.svg", lesson: 11, render: () => causalMask() },
  { file: "lesson-11-gqa.svg", lesson: 11, render: () => gqaSharing(), uses: ["lesson-11/repeatKv"] },
];
