/**
 * Lesson 27's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { parseVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "parseAssistantText",
    name: "always-remove-blocks",
    mistake: "tool-call blocks leave the content only when at least one of them parsed; when none did, MiniMind keeps the text as it was",
    fn: parseVariant({ alwaysRemoveBlocks: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "compact-arguments",
    mistake: "arguments are re-serialised as Python's json.dumps writes them, with \", \" and \": \" separators; JSON.stringify writes none",
    fn: parseVariant({ compactArguments: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "empty-reasoning-null",
    mistake: "an empty think block gives reasoning \"\" (there was a block), not null (no block at all)",
    fn: parseVariant({ emptyReasoningIsNull: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "greedy-tool-call",
    mistake: "a greedy (.*) spans from the first <tool_call> to the last </tool_call>: two calls become one block of broken JSON; use a lazy (.*?)",
    fn: parseVariant({ greedyToolCall: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "ids-count-parsed",
    mistake: "ids number the <tool_call> blocks, broken ones included (enumerate over every match), not only the calls that parsed",
    fn: parseVariant({ idsCountParsed: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "js-trim",
    mistake: "JavaScript's trim() is not Python's strip(): Python strips NEL (U+0085) and \\x1c-\\x1f but keeps the BOM (U+FEFF)",
    fn: parseVariant({ jsTrim: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "needs-opening-think",
    mistake: "a reply with </think> but no <think> (the prompt opened the block, open_thinking) keeps its thinking as content: split at the first </think>",
    fn: parseVariant({ needsOpeningTag: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "nullish-arguments",
    mistake: "null arguments became \"{}\" (a ?? default); Python's call.get(\"arguments\", {}) only defaults a missing key, and json.dumps(None) is \"null\"",
    fn: parseVariant({ nullishArguments: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "nullish-defaults",
    mistake: "the defaults were applied with ??, so a null name became \"\" and null arguments \"{}\"; Python's call.get(key, default) only defaults a missing key: a null name stays null and json.dumps(None) is \"null\"",
    fn: parseVariant({ nullishName: true, nullishArguments: true }),
  },
  {
    exercise: "parseAssistantText",
    name: "time-based-id",
    mistake: "the default idPrefix was taken from the clock, as MiniMind's call_{int(time.time())}; the contract's default is \"call\", so ids are call_0, call_1, … and a reply parses the same every time",
    fn: parseVariant({ timeBasedDefaultId: true }),
  },
];
