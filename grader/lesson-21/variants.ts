/** Wrong versions of lesson 21's functions, each with one plausible flaw around the reference. */
import * as tf from "../../lib/tf.js";
import type { TextTokenizer } from "../../lib/tokenizer.js";
import type { ChatMessage } from "../../solutions/lesson-4/chat-template.js";
import { dpoBatch, dpoSample, type DpoSample } from "../../solutions/lesson-21/dpo-data.js";
import { sftLabels } from "../../solutions/lesson-5/sft.js";

export type SampleFlaw = "mask-unshifted" | "mask-all-tokens" | "rejected-drawn-first" | "labels-as-mask" | "pad-zero";

export function sampleVariant(flaw: SampleFlaw) {
  return (chosen: ChatMessage[], rejected: ChatMessage[], tok: TextTokenizer, maxLength: number, random: () => number): DpoSample => {
    if (flaw === "pad-zero") return dpoSample(chosen, rejected, { ...tok, padId: 0 }, maxLength, random); // padded with a literal 0
    if (flaw === "rejected-drawn-first") {
      const s = dpoSample(rejected, chosen, tok, maxLength, random);
      return { xChosen: s.xRejected, yChosen: s.yRejected, maskChosen: s.maskRejected, xRejected: s.xChosen, yRejected: s.yChosen, maskRejected: s.maskChosen };
    }
    const s = dpoSample(chosen, rejected, tok, maxLength, random);
    const fix = (x: number[], y: number[]) => {
      const ids = [x[0], ...y];
      if (flaw === "mask-unshifted") {
        const m = sftLabels(ids, tok.encode(`${tok.bosToken}assistant\n`), tok.encode(`${tok.eosToken}\n`), maxLength).map((l) => (l === -100 ? 0 : 1));
        return m.slice(0, -1);
      }
      if (flaw === "mask-all-tokens") return y.map((id) => (id === tok.padId ? 0 : 1));
      return sftLabels(ids, tok.encode(`${tok.bosToken}assistant\n`), tok.encode(`${tok.eosToken}\n`), maxLength).slice(1);
    };
    return { ...s, maskChosen: fix(s.xChosen, s.yChosen), maskRejected: fix(s.xRejected, s.yRejected) };
  };
}

export type BatchFlaw = "interleaved" | "rejected-first" | "int-mask";

export function batchVariant(flaw: BatchFlaw) {
  return (samples: DpoSample[]) => {
    if (flaw === "rejected-first") {
      return dpoBatch(samples.map((s) => ({ xChosen: s.xRejected, yChosen: s.yRejected, maskChosen: s.maskRejected, xRejected: s.xChosen, yRejected: s.yChosen, maskRejected: s.maskChosen })));
    }
    if (flaw === "int-mask") {
      const b = dpoBatch(samples);
      const mask = b.mask.toInt();
      b.mask.dispose();
      return { ...b, mask };
    }
    const rows = (c: keyof DpoSample, r: keyof DpoSample) => samples.flatMap((s) => [s[c], s[r]]);
    return {
      x: tf.tensor2d(rows("xChosen", "xRejected"), undefined, "int32"),
      y: tf.tensor2d(rows("yChosen", "yRejected"), undefined, "int32"),
      mask: tf.tensor2d(rows("maskChosen", "maskRejected"), undefined, "float32"),
    };
  };
}
