/**
 * Rows of token boxes for the tokenizer and data lessons (4, 5, 6, 21): each token drawn with its
 * text (whitespace made visible) and a fill that says what the lesson wants to show about it
 * (labelled or not, in the mask or not, merged or not).
 */
import { COLORS, Canvas, textWidth } from "../../lib/svg-diagrams.js";

export interface StripToken {
  text: string;
  fill: string;
  /** A second line under the box (an id, a label). */
  note?: string;
}

/** How a token's text is shown: spaces as ·, newlines as ↵, tabs as →. */
export function visible(text: string): string {
  return text.replace(/ /g, "·").replace(/\n/g, "↵").replace(/\t/g, "→") || "∅";
}

/**
 * Draws `tokens` left to right from (x, y), wrapping at `width`; returns the y below the last row.
 * A row label, when given, sits to the left of the first box.
 */
export function tokenStrip(c: Canvas, x: number, y: number, width: number, tokens: readonly StripToken[], label?: string): number {
  const H = 22;
  const rowH = tokens.some((t) => t.note !== undefined) ? H + 18 : H + 8;
  const left = label ? x + 110 : x;
  if (label) c.text(x, y + 15, label, { size: 12, weight: "bold" });
  let cx = left;
  let cy = y;
  for (const t of tokens) {
    const shown = visible(t.text);
    const w = Math.max(18, textWidth(shown, 11) + 10, t.note ? textWidth(t.note, 9) + 6 : 0);
    if (cx + w > x + width && cx > left) {
      cx = left;
      cy += rowH;
    }
    c.rect(cx, cy, w, H, { fill: t.fill, stroke: "#888888", rx: 3 });
    c.text(cx + w / 2, cy + 15, shown, { size: 11, anchor: "middle", family: "monospace" });
    if (t.note !== undefined) c.text(cx + w / 2, cy + H + 11, t.note, { size: 9, anchor: "middle", fill: COLORS.muted });
    cx += w + 3;
  }
  return cy + rowH;
}
