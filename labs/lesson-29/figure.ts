/** Lesson 29: the three policies of decoupled PPO on a version line, and the two ratios between them. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

export function threePolicies(current = 7, stale = 3): string {
  const W = 700;
  const H = 290;
  const c = new Canvas(W, H).title("Decoupled PPO: three policies, two ratios", `a token generated ${stale} versions before the step that trains on it`);
  const v0 = current - stale - 1;
  const v1 = current + 1;
  const left = 70;
  const right = 640;
  const sx = (v: number) => left + ((v - v0) / (v1 - v0)) * (right - left);
  const y = 170;
  c.arrow(left - 10, y, right + 20, y, { color: COLORS.grey, width: 1.5 });
  c.text(right + 20, y - 10, "version", { anchor: "end", fill: COLORS.muted });
  for (let v = v0; v <= v1; v++) {
    c.line(sx(v), y - 5, sx(v), y + 5, { stroke: COLORS.grey });
    c.text(sx(v), y + 20, `v${v}`, { anchor: "middle", fill: COLORS.muted, size: 11 });
  }
  const vb = current - stale;
  const vp = current;
  const pts = [
    { v: vb, name: "π_behave", what: ["generated the token", "(inference engine)"], color: COLORS.orange },
    { v: vp, name: "π_prox", what: ["weights at the start", "of this step"], color: COLORS.purple },
  ];
  for (const p of pts) {
    c.circle(sx(p.v), y, 9, { fill: p.color, stroke: "#333333" });
    c.text(sx(p.v), y + 44, p.name, { anchor: "middle", weight: "bold", fill: p.color });
    p.what.forEach((l, i) => c.text(sx(p.v), y + 60 + i * 14, l, { anchor: "middle", size: 11, fill: COLORS.muted }));
  }
  // π_θ: moving away from π_prox during the step, a fraction of a version.
  const xt = sx(vp) + 0.55 * (sx(vp + 1) - sx(vp));
  c.circle(xt, y, 9, { fill: COLORS.blue, stroke: "#333333" });
  c.text(xt + 14, y + 44, "π_θ", { weight: "bold", fill: COLORS.blue });
  c.text(xt + 14, y + 60, "being optimised", { size: 11, fill: COLORS.muted });
  // The two ratios.
  c.curvedArrow(sx(vb), y - 14, sx(vp), y - 14, -50, { color: COLORS.orange, width: 2 });
  c.text((sx(vb) + sx(vp)) / 2, y - 74, "w = π_prox / π_behave", { anchor: "middle", weight: "bold", fill: "#b35900" });
  c.text((sx(vb) + sx(vp)) / 2, y - 58, "importance weight: a constant, corrects who sampled", { anchor: "middle", size: 11, fill: COLORS.muted });
  c.curvedArrow(sx(vp), y - 14, xt, y - 14, -34, { color: COLORS.blue, width: 2 });
  c.text(xt + 24, y - 58, "r = π_θ / π_prox", { weight: "bold", fill: COLORS.blue, anchor: "middle" });
  c.text(xt + 24, y - 42, "clipped to [1−ε, 1+ε_high]", { size: 11, fill: COLORS.muted, anchor: "middle" });
  c.text(W / 2, H - 12, "plain PPO centres the clip on π_behave, versions behind; decoupled PPO centres it on π_prox", { anchor: "middle" });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-29-three-policies.svg", lesson: 29, render: () => threePolicies() }];
