/** Lesson 4: byte-level BPE merge by merge on the worked example, through the learner's bpeTrain and bpeEncode. */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import type { BpeModel } from "../../lib/tokenizer.js";
import { lessonFunction, type Figure } from "../figures/figure.js";
import { tokenStrip } from "../figures/token-strip.js";

type Train = (texts: string[], vocabSize: number, specials: string[]) => BpeModel;
type Encode = (model: BpeModel, text: string) => number[];

export async function mergeSteps(): Promise<string> {
  const bpeTrain = await lessonFunction<Train>(4, "bpeTrain");
  const bpeEncode = await lessonFunction<Encode>(4, "bpeEncode");
  const texts = ["hug hugs pug", "pun bun hugs"];
  const specials = ["<|endoftext|>", "<|im_start|>"];
  const full = bpeTrain(texts, 263, specials);
  const text = "hug hugs pug<|im_start|>";
  const c = new Canvas(720, 330).title("Byte-level BPE on the worked example, one merge at a time", "bpeTrain(texts, 263, 2 specials) learns 5 merges; each row encodes the same text with the first k");
  let y = 60;
  for (let k = 0; k <= full.merges.length; k++) {
    const model: BpeModel = { ...full, merges: full.merges.slice(0, k) };
    const ids = bpeEncode(model, text);
    const tokenOf = new Map(Object.entries(full.vocab).map(([t, id]) => [id, t] as const));
    const label = k === 0 ? "bytes" : `+ ${full.merges[k - 1]!.join(" ")}`;
    y = tokenStrip(c, 20, y, 680, ids.map((id) => ({ text: tokenOf.get(id)!, fill: id < 2 ? COLORS.lightOrange : id >= 258 ? COLORS.lightGreen : COLORS.lightGrey, note: String(id) })), label);
  }
  c.legend(24, 312, [{ label: "a byte character (ids 2-257)", color: COLORS.lightGrey }]);
  c.legend(240, 312, [{ label: "a merged token (258+)", color: COLORS.lightGreen }]);
  c.legend(430, 312, [{ label: "a special token, matched whole", color: COLORS.lightOrange }]);
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-04-bpe-merges.svg", lesson: 4, render: mergeSteps, uses: ["lesson-4/bpeTrain", "lesson-4/bpeEncode"] }];
