/** Lesson 6: the same text under pretraining labels and SFT labels, through the learner's functions. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { lessonFunction, type Figure } from "../figures/figure.js";
import { FIGURE_CHAT, minimindTokenizerForFigures } from "../lesson-5/figure.js";
import { tokenStrip } from "../figures/token-strip.js";

type Sample = { inputIds: number[]; labels: number[] };
type Pretrain = (text: string, t: TextTokenizer, L: number) => Sample;
type SftSample = (c: object[], t: TextTokenizer, L: number, r: () => number) => Sample;

export async function twoLabelSchemes(): Promise<string> {
  const pretrainSample = await lessonFunction<Pretrain>(6, "pretrainSample");
  const sftSample = await lessonFunction<SftSample>(5, "sftSample");
  const tok = minimindTokenizerForFigures();
  const draws = [0.5, 0.9];
  const sft = sftSample(FIGURE_CHAT, tok, 34, () => draws.shift() ?? 0.5);
  const pre = pretrainSample("2+3? 5. And 4+4? 8.", tok, 14);
  const strip = (s: Sample) => s.inputIds.map((id, i) => ({ text: tok.decode([id]), fill: s.labels[i] === -100 ? COLORS.lightGrey : COLORS.lightGreen, note: s.labels[i] === -100 ? "-100" : String(s.labels[i]) }));
  const c = new Canvas(720, 300).title("One interface, two label rules", "both return (inputIds, labels) of length maxLength; the model's loss shifts them the same way (lesson 10)");
  let y = tokenStrip(c, 20, 60, 680, strip(pre), "pretrainSample");
  y = tokenStrip(c, 20, y + 10, 680, strip(sft), "sftSample");
  c.legend(24, y + 14, [{ label: "labelled", color: COLORS.lightGreen }]);
  c.legend(160, y + 14, [{ label: "-100 (ignored by the loss)", color: COLORS.lightGrey }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-06-label-schemes.svg", lesson: 6, render: twoLabelSchemes, uses: ["lesson-6/pretrainSample", "lesson-5/sftSample"] }];
