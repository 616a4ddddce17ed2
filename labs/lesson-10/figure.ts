/** Lesson 10: the loss shift, as arrows from each position's logits to the next position's label. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { Figure } from "../figures/figure.js";

const TOKENS = ["<s>", "The", "cat", "sat", "down", "</s>", "<pad>", "<pad>"];
const IGNORE = -100;

export function lossShift(): string {
  const T = TOKENS.length;
  // Labels are a copy of the ids, with padding set to −100 (here: the ids are the token's index).
  const ids = TOKENS.map((_, i) => i);
  const labels = TOKENS.map((t, i) => (t === "<pad>" ? IGNORE : ids[i]!));
  // The shift: logits[:, :-1] meet labels[:, 1:].
  const pairs = Array.from({ length: T - 1 }, (_, t) => ({ from: t, to: t + 1, counted: labels[t + 1] !== IGNORE }));
  const counted = pairs.filter((p) => p.counted).length;
  const W = 700;
  const H = 360;
  const c = new Canvas(W, H).title("The loss shift: the logits at position t are scored against the label at t + 1", `T = ${T}; labels are a copy of the ids, padding set to −100`);
  const cell = 68;
  const x0 = 120;
  const rows = { pos: 78, ids: 92, logits: 160, labels: 262 };
  const cx = (t: number) => x0 + t * cell + cell / 2;
  c.text(x0 - 12, rows.pos + 4, "position t", { anchor: "end", fill: COLORS.muted });
  c.text(x0 - 12, rows.ids + 22, "input ids", { anchor: "end", weight: "bold" });
  c.text(x0 - 12, rows.logits + 22, "logits z_t", { anchor: "end", weight: "bold" });
  c.text(x0 - 12, rows.labels + 22, "labels", { anchor: "end", weight: "bold" });
  for (let t = 0; t < T; t++) {
    const x = x0 + t * cell + 4;
    const pad = labels[t] === IGNORE;
    c.text(cx(t), rows.pos + 4, String(t), { anchor: "middle", fill: COLORS.muted });
    c.box(x, rows.ids, cell - 8, 32, TOKENS[t]!, { fill: COLORS.lightGrey });
    c.arrow(cx(t), rows.ids + 33, cx(t), rows.logits - 2, { color: "#999999", width: 1 });
    const lastLogit = t === T - 1;
    c.box(x, rows.logits, cell - 8, 32, `z${t}`, { fill: lastLogit ? "#ffffff" : COLORS.lightBlue, stroke: lastLogit ? "#bbbbbb" : COLORS.blue, dash: lastLogit ? "4 3" : undefined, text: { fill: lastLogit ? COLORS.muted : COLORS.text } });
    const firstLabel = t === 0;
    c.box(x, rows.labels, cell - 8, 32, pad ? "−100" : TOKENS[t]!, {
      fill: firstLabel || pad ? "#ffffff" : COLORS.lightGreen,
      stroke: firstLabel || pad ? "#bbbbbb" : COLORS.green,
      dash: firstLabel || pad ? "4 3" : undefined,
      text: { fill: firstLabel || pad ? COLORS.muted : COLORS.text },
    });
  }
  for (const p of pairs) {
    const color = p.counted ? COLORS.text : "#bbbbbb";
    c.arrow(cx(p.from) + 6, rows.logits + 34, cx(p.to) - 6, rows.labels - 3, { color, width: p.counted ? 1.8 : 1.2, dash: p.counted ? undefined : "4 3" });
    if (!p.counted) c.text((cx(p.from) + cx(p.to)) / 2 + 8, (rows.logits + rows.labels) / 2 + 20, "ignored", { anchor: "middle", fill: COLORS.muted, size: 11 });
  }
  c.text(cx(T - 1), rows.logits + 48, "no label:", { anchor: "middle", fill: COLORS.muted, size: 11 });
  c.text(cx(T - 1), rows.logits + 61, "dropped", { anchor: "middle", fill: COLORS.muted, size: 11 });
  c.text(cx(0), rows.labels + 48, "nothing predicts", { anchor: "middle", fill: COLORS.muted, size: 11 });
  c.text(cx(0), rows.labels + 61, "it: dropped", { anchor: "middle", fill: COLORS.muted, size: 11 });
  c.text(x0 + (T * cell) / 2 + 30, H - 12, `loss = mean over the ${counted} counted pairs of −log softmax(z_t)[label_t+1]   (${T - 1} pairs, ${T - 1 - counted} ignored)`, { anchor: "middle" });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-10-loss-shift.svg", lesson: 10, render: lossShift }];
