/**
 * Lesson 5's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { labelsVariant, postVariant, preVariant, sampleVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "postProcessingChat",
    name: "always-draws",
    mistake: "draws a uniform for every prompt, even one without an empty think block",
    fn: postVariant("always-draws"),
  },
  {
    exercise: "postProcessingChat",
    name: "default-ratio-kept-share",
    mistake: "the default emptyThinkRatio was 0.8 (the share that is removed); MiniMind's empty_think_ratio default is 0.2, and a draw above it removes the block",
    fn: postVariant("default-ratio-kept-share"),
  },
  {
    exercise: "postProcessingChat",
    name: "first-only",
    mistake: "removes only the first empty think block (String.replace with a string)",
    fn: postVariant("first-only"),
  },
  {
    exercise: "postProcessingChat",
    name: "inverted",
    mistake: "removes the empty think block when the draw is below the ratio (the 20% case) instead of above it",
    fn: postVariant("inverted"),
  },
  {
    exercise: "preProcessingChat",
    name: "always-two-draws",
    mistake: "draws the prompt choice even when no system prompt is added, shifting every later draw",
    fn: preVariant("always-two-draws"),
  },
  {
    exercise: "preProcessingChat",
    name: "default-ratio-half",
    mistake: "the default addSystemRatio is not 0.2 (MiniMind's add_system_ratio default)",
    fn: preVariant("default-ratio-half"),
  },
  {
    exercise: "preProcessingChat",
    name: "even-with-system",
    mistake: "draws and may add a second system prompt when the conversation already has one",
    fn: preVariant("even-with-system"),
  },
  {
    exercise: "preProcessingChat",
    name: "ignores-tools",
    mistake: "adds a system prompt to tool-use conversations, which MiniMind leaves unchanged",
    fn: preVariant("ignores-tools"),
  },
  {
    exercise: "preProcessingChat",
    name: "ratio-inclusive",
    mistake: "a system prompt was added when the draw equals the ratio (u ≤ ratio); MiniMind adds one only when random() < add_system_ratio",
    fn: preVariant("ratio-inclusive"),
  },
  {
    exercise: "preProcessingChat",
    name: "replaces-first",
    mistake: "replaces the first message with the system prompt instead of prepending it",
    fn: preVariant("replaces-first"),
  },
  {
    exercise: "preProcessingChat",
    name: "tools-key-present",
    mistake: "a conversation counted as a tool conversation when a message merely has a tools key; MiniMind's rows carry tools: null (or \"\") on every message, and only a truthy value counts",
    fn: preVariant("tools-key-present"),
  },
  {
    exercise: "sftLabels",
    name: "end-by-first-id",
    mistake: "a span ended at the first id of the end marker (<|im_end|>) even when the rest of the marker (\"\\n\") does not follow; match the whole assistantEnd sequence",
    fn: labelsVariant("end-by-first-id"),
  },
  {
    exercise: "sftLabels",
    name: "end-unlabelled",
    mistake: "leaves the closing <|im_end|>\\n unlabelled, so the model never learns to stop",
    fn: labelsVariant("end-unlabelled"),
  },
  {
    exercise: "sftLabels",
    name: "first-span-only",
    mistake: "labels only the first assistant turn of a conversation",
    fn: labelsVariant("first-span-only"),
  },
  {
    exercise: "sftLabels",
    name: "ignores-max-length",
    mistake: "labels positions at or past maxLength",
    fn: labelsVariant("ignores-max-length"),
  },
  {
    exercise: "sftLabels",
    name: "past-the-end",
    mistake: "an open span was labelled up to min(end + len(end marker), maxLength) even past the last id, so the labels grew longer than inputIds; stop at the last id",
    fn: labelsVariant("past-the-end"),
  },
  {
    exercise: "sftLabels",
    name: "start-labelled",
    mistake: "labels the <|im_start|>assistant\\n marker too (it is prompt, not response)",
    fn: labelsVariant("start-labelled"),
  },
  {
    exercise: "sftSample",
    name: "markers-without-newline",
    mistake: "scans for <|im_start|>assistant and <|im_end|> without their newlines",
    fn: sampleVariant("markers-without-newline"),
  },
  {
    exercise: "sftSample",
    name: "no-pre-processing",
    mistake: "skips the random system prompt (pre-processing)",
    fn: sampleVariant("no-pre-processing"),
  },
  {
    exercise: "sftSample",
    name: "no-tools",
    mistake: "does not pass the system message's tools to the chat template",
    fn: sampleVariant("no-tools"),
  },
  {
    exercise: "sftSample",
    name: "pads-with-eos",
    mistake: "pads with the eos id instead of the pad id",
    fn: sampleVariant("pads-with-eos"),
  },
  {
    exercise: "sftSample",
    name: "pads-with-zero",
    mistake: "padded with a literal 0 instead of tokenizer.padId (MiniMind's pad id happens to be 0; another tokenizer's is not)",
    fn: sampleVariant("pads-with-zero"),
  },
  {
    exercise: "sftSample",
    name: "parses-empty-tool-calls",
    mistake: "every string tool_calls was JSON-parsed, the empty string too (JSON.parse(\"\") throws); MiniMind parses it only when it is a non-empty string",
    fn: sampleVariant("parses-empty-tool-calls"),
  },
];
