/**
 * Lesson 11's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { attentionVariant, repeatKvVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "attention",
    name: "cache-after-repeat",
    mistake: "the cache stores keys/values after repeatKv ([B, T, Hq, D]); MiniMind keeps them before it, with Hkv heads, so the cache stays small",
    fn: attentionVariant({ cacheAfterRepeat: true }),
  },
  {
    exercise: "attention",
    name: "cache-by-default",
    mistake: "presentKv was returned although useCache was left out; return the cache only when useCache is true",
    fn: attentionVariant({ cacheByDefault: true }),
  },
  {
    exercise: "attention",
    name: "causal-mask-first-columns",
    mistake: "the causal triangle covers the first S key columns; with a cache it must cover the last S (new query i sees every cached key and new keys up to i)",
    fn: attentionVariant({ causalFirstColumns: true }),
  },
  {
    exercise: "attention",
    name: "eps-default-1e-5",
    mistake: "the QK-norm's ε defaulted to 1e-5 when opts.eps is left out; the default is 1e-6",
    fn: attentionVariant({ epsDefault: 1e-5 }),
  },
  {
    exercise: "attention",
    name: "ignores-padding",
    mistake: "the attention mask is ignored, so queries attend to padding tokens: add (1 − mask)·(−1e9) to the scores",
    fn: attentionVariant({ noPaddingMask: true }),
  },
  {
    exercise: "attention",
    name: "merge-without-transpose",
    mistake: "the heads are merged by reshaping [B, Hq, S, D] straight to [B, S, Hq·D]; move the head axis back first (transpose to [B, S, Hq, D])",
    fn: attentionVariant({ mergeWithoutTranspose: true }),
  },
  {
    exercise: "attention",
    name: "no-qk-norm",
    mistake: "q_norm and k_norm are skipped: each head of q and k must go through RMSNorm (with its gain) before RoPE",
    fn: attentionVariant({ noQkNorm: true }),
  },
  {
    exercise: "attention",
    name: "null-checks-only",
    mistake: "left-out options were read: pastKv and attentionMask were checked with !== null, so an option that is absent (undefined) was used; treat undefined like null",
    fn: attentionVariant({ nullChecksOnly: true }),
  },
  {
    exercise: "attention",
    name: "padding-from-left",
    mistake: "the mask was read as a number of pad positions taken from the left; a mask can have holes: mask each key by its own 0 or 1",
    fn: attentionVariant({ padFromLeft: true }),
  },
  {
    exercise: "attention",
    name: "padding-minus-infinity",
    mistake: "padded keys were set to −∞ instead of getting −1e9 added: a query that can only see padded keys gets NaN; add (1 − mask)·(−1e9) as MiniMind does",
    fn: attentionVariant({ padMinusInfinity: true }),
  },
  {
    exercise: "attention",
    name: "rope-before-qk-norm",
    mistake: "RoPE is applied before QK-norm; MiniMind normalises q and k first, then rotates them (the order matters once the norm gains are not all 1)",
    fn: attentionVariant({ ropeBeforeNorm: true }),
  },
  {
    exercise: "attention",
    name: "scale-by-d",
    mistake: "the scores are divided by head_dim instead of √head_dim",
    fn: attentionVariant({ scaleByD: true }),
  },
  {
    exercise: "attention",
    name: "tiled-kv-heads",
    mistake: "query head h reads kv head h mod Hkv; with repeat_kv it reads kv head ⌊h / nRep⌋",
    fn: attentionVariant({ repeat: "tiled" }),
  },
  {
    exercise: "repeatKv",
    name: "copies-positions",
    mistake: "the copies are made along the positions (axis 1) and then reshaped into heads, which mixes positions into heads",
    fn: repeatKvVariant("sequenceAxis"),
  },
  {
    exercise: "repeatKv",
    name: "copy-axis-after-head-dim",
    mistake: "the copy axis is inserted after head_dim instead of after the kv-head axis, so each new head interleaves numbers of one old head",
    fn: repeatKvVariant("afterHeadDim"),
  },
  {
    exercise: "repeatKv",
    name: "tiled-heads",
    mistake: "the kv heads are tiled (query head h reads kv head h mod Hkv) instead of each repeated nRep times in a row (h reads ⌊h / nRep⌋)",
    fn: repeatKvVariant("tiled"),
  },
];
