/** Lesson 21: a DPO pair as x, y and the shifted mask, through the learner's dpoSample. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { lessonFunction, type Figure } from "../figures/figure.js";
import { minimindTokenizerForFigures } from "../lesson-5/figure.js";
import { tokenStrip } from "../figures/token-strip.js";

type DpoSample = (c: object[], r: object[], t: TextTokenizer, L: number, rnd: () => number) => Record<string, number[]>;

export async function dpoPairFigure(): Promise<string> {
  const dpoSample = await lessonFunction<DpoSample>(21, "dpoSample");
  const tok = minimindTokenizerForFigures();
  const turn = (a: string) => [{ role: "user", content: "2+2?" }, { role: "assistant", content: a }];
  const draws = [0.9, 0.9];
  const s = dpoSample(turn("4"), turn("5"), tok, 20, () => draws.shift() ?? 0.9);
  const row = (y: number[], mask: number[]) => y.map((id, j) => ({ text: tok.decode([id]), fill: mask[j] ? COLORS.lightGreen : COLORS.lightGrey, note: `m=${mask[j]}` }));
  const c = new Canvas(720, 270).title("A DPO pair: targets y = ids[1:] and the mask over them", "dpoSample(chosen \"4\", rejected \"5\", MiniMind's tokenizer, maxLength 20); mask = loss mask[1:], aligned with y");
  let y = tokenStrip(c, 20, 60, 680, row(s.yChosen!, s.maskChosen!), "chosen y");
  y = tokenStrip(c, 20, y + 6, 680, row(s.yRejected!, s.maskRejected!), "rejected y");
  c.legend(24, y + 12, [{ label: "mask 1: this target's log-prob enters the DPO sum", color: COLORS.lightGreen }]);
  c.legend(400, y + 12, [{ label: "mask 0", color: COLORS.lightGrey }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-21-dpo-pair.svg", lesson: 21, render: dpoPairFigure, uses: ["lesson-21/dpoSample"] }];
