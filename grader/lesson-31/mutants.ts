/**
 * Lesson 31's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { maskVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "m2poMask",
    name: "fallback-masks-all",
    mistake: "with no suffix mean below τ every token was masked; AReaL masks n − 1 and keeps the token with the smallest m2",
    fn: maskVariant({ fallbackMasksAll: true }),
  },
  {
    exercise: "m2poMask",
    name: "float-mask",
    mistake: "the mask came back as float32 0/1; return a bool tensor like the loss mask",
    fn: maskVariant({ floatMask: true }),
  },
  {
    exercise: "m2poMask",
    name: "mask-as-lengths",
    mistake: "the loss mask was read as row lengths (the first Σ mask positions of each row); a loss mask can have holes, such as tool output inside a multi-turn response: use the mask position by position",
    fn: maskVariant({ maskAsLengths: true }),
  },
  {
    exercise: "m2poMask",
    name: "non-strict",
    mistake: "a suffix mean equal to τ was accepted; AReaL stops at the first suffix whose mean is strictly below τ",
    fn: maskVariant({ nonStrict: true }),
  },
  {
    exercise: "m2poMask",
    name: "off-by-one",
    mistake: "one token too many was masked: k, the index of the first suffix below τ, is the number of tokens to mask",
    fn: maskVariant({ offByOne: true }),
  },
  {
    exercise: "m2poMask",
    name: "padding-counted",
    mistake: "padding tokens took part in the sort and the means; only tokens where lossMask is true count",
    fn: maskVariant({ paddingCounted: true }),
  },
  {
    exercise: "m2poMask",
    name: "padding-kept",
    mistake: "padding tokens came back as true; the result must be false wherever lossMask is false",
    fn: maskVariant({ paddingKept: true }),
  },
  {
    exercise: "m2poMask",
    name: "per-token-threshold",
    mistake: "each token was compared with τ on its own; M2PO masks the largest tokens only until the mean of the rest falls below τ, so a token above τ can stay",
    fn: maskVariant({ perToken: true }),
  },
  {
    exercise: "m2poMask",
    name: "smallest-first",
    mistake: "the smallest second moments were masked; sort in descending order and mask the largest",
    fn: maskVariant({ smallestFirst: true }),
  },
  {
    exercise: "m2poMask",
    name: "ties-later-first",
    mistake: "of tokens tied on m2 the later position was masked first (sorted ascending and taken from the end); the order is largest m2 first and, among ties, the earlier position first",
    fn: maskVariant({ tiesLaterFirst: true }),
  },
];
