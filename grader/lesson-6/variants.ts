/** Wrong versions of lesson 6's pretrainSample, each with one plausible flaw. */
import type { TextTokenizer } from "../../lib/tokenizer.js";

export type PretrainFlaw = "cut-to-max-length" | "no-eos" | "pad-labels-kept" | "pad-by-position" | "pads-with-zero" | "zero-ids-unlabelled";

export function pretrainVariant(flaw: PretrainFlaw) {
  return (text: string, tok: TextTokenizer, maxLength: number) => {
    const ids = tok.encode(text).slice(0, flaw === "cut-to-max-length" ? maxLength : Math.max(0, maxLength - (flaw === "no-eos" ? 1 : 2)));
    const body = flaw === "no-eos" ? [tok.bosId, ...ids] : [tok.bosId, ...ids, tok.eosId];
    const inputIds = [...body];
    while (inputIds.length < maxLength) inputIds.push(flaw === "pads-with-zero" ? 0 : tok.padId);
    const pad = flaw === "pads-with-zero" || flaw === "zero-ids-unlabelled" ? 0 : tok.padId;
    const labels = inputIds.map((id, i) => (flaw === "pad-labels-kept" ? id : flaw === "pad-by-position" ? (i < body.length ? id : -100) : id === pad ? -100 : id));
    return { inputIds, labels };
  };
}
