/** Lesson 16: one conversation, the same next-token loss, two sets of labels (pretrain vs SFT). */
import { COLORS, Canvas } from "../../lib/svg-diagrams.js";
import { BOS_ID, decodeBytes, encodeBytes, EOS_ID } from "../../lib/model/byte-tokenizer.js";
import { lessonFunction, type Figure } from "../figures/figure.js";
import { tokenStrip, type StripToken } from "../figures/token-strip.js";

type SftLabels = (inputIds: number[], assistantStart: number[], assistantEnd: number[], maxLength: number) => number[];

const SPECIAL: Record<number, string> = { [BOS_ID]: "<s>", [EOS_ID]: "</s>" };

export async function sftVsPretrainLabels(): Promise<string> {
  const sftLabels = await lessonFunction<SftLabels>(5, "sftLabels");
  const turn = (role: string, text: string) => [BOS_ID, ...encodeBytes(`${role}\n${text}`), EOS_ID, ...encodeBytes("\n")];
  const ids = [...turn("user", "Hi?"), ...turn("assistant", "Hello!")];
  const sft = sftLabels(ids, [BOS_ID, ...encodeBytes("assistant\n")], [EOS_ID, ...encodeBytes("\n")], ids.length);
  const show = (id: number) => SPECIAL[id] ?? decodeBytes([id]);
  const strip = (counted: (i: number) => boolean): StripToken[] => ids.map((id, i) => ({ text: show(id), fill: counted(i) ? COLORS.lightGreen : "#eeeeee" }));
  const counted = sft.filter((l) => l !== -100).length;
  const W = 700;
  const c = new Canvas(W, 290).title("Full SFT: the same loss as pretraining, other labels", "<s> = <|im_start|>, </s> = <|im_end|>; byte tokens; green positions have a label (≠ −100)");
  let y = 70;
  y = tokenStrip(c, 20, y, W - 40, strip(() => true), "pretrain labels") + 14;
  y = tokenStrip(c, 20, y, W - 40, strip((i) => sft[i] !== -100), "SFT labels") + 10;
  c.text(20, y + 16, `Pretraining learns all ${ids.length} tokens; SFT (lesson 5's sftLabels) only the ${counted} of the reply, with its </s> and newline.`, { size: 12 });
  c.text(20, y + 36, "The loss is the same masked mean of −log p over labelled positions (lesson 10); only which positions count has changed.", { size: 12 });
  c.text(20, y + 56, "Full SFT starts from the pretrained weights and updates all of them (lesson 17), at a learning rate 50× smaller.", { size: 12, fill: COLORS.muted });
  return c.toString();
}

export const figures: Figure[] = [{ file: "lesson-16-sft-labels.svg", lesson: 16, render: sftVsPretrainLabels, uses: ["lesson-5/sftLabels"] }];
