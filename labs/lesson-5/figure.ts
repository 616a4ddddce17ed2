/** Lesson 5: which tokens of a MiniMind chat get labels, through the learner's sftSample. */
import { join } from "node:path";
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { loadTokenizer, type TextTokenizer } from "../../lib/tokenizer.js";
import { ROOT } from "../../grader/engine/paths.js";
import { lessonFunction, type Figure } from "../figures/figure.js";
import { tokenStrip } from "../figures/token-strip.js";

type SftSample = (c: object[], t: TextTokenizer, L: number, r: () => number) => { inputIds: number[]; labels: number[] };

/** The conversation lessons 5 and 6 draw. */
export const FIGURE_CHAT = [
  { role: "user", content: "2+3?" },
  { role: "assistant", content: "5" },
  { role: "user", content: "And 4+4?" },
  { role: "assistant", content: "8" },
];

export function minimindTokenizerForFigures() {
  return loadTokenizer(join(ROOT, "datasets", "minimind-tokenizer", "tokenizer.json"));
}

export async function sftLabelFigure(): Promise<string> {
  const sftSample = await lessonFunction<SftSample>(5, "sftSample");
  const tok = minimindTokenizerForFigures();
  const draws = [0.5, 0.9]; // no system prompt; empty think blocks removed
  const { inputIds, labels } = sftSample(FIGURE_CHAT, tok, 40, () => draws.shift() ?? 0.5);
  const c = new Canvas(720, 250).title("SFT labels: only the assistant's tokens are learned", "sftSample on a two-turn chat, MiniMind's tokenizer, maxLength 40; the note under each token is its label");
  tokenStrip(c, 20, 60, 680, inputIds.map((id, i) => ({
    text: tok.decode([id]),
    fill: labels[i] === -100 ? (id === tok.padId ? COLORS.faint : COLORS.lightGrey) : COLORS.lightGreen,
    note: labels[i] === -100 ? "-100" : String(labels[i]),
  })));
  c.legend(24, 228, [{ label: "labelled (loss counts it)", color: COLORS.lightGreen }]);
  c.legend(240, 228, [{ label: "-100: prompt, markers", color: COLORS.lightGrey }]);
  c.legend(440, 228, [{ label: "-100: padding", color: COLORS.faint }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-05-sft-labels.svg", lesson: 5, render: sftLabelFigure, uses: ["lesson-5/sftSample"] }];
