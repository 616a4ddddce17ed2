/**
 * Lesson 26's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { packVariant, parseVariant, rewardVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "agentLossMask",
    name: "drops-eos-everywhere",
    mistake: "pad and EOS ids were dropped from the prompt and the observations too; only the ids the model generated are filtered (a prompt or a tool response may hold the EOS id, e.g. an earlier turn's end)",
    fn: packVariant({ dropEosEverywhere: true }),
  },
  {
    exercise: "agentLossMask",
    name: "keep-head",
    mistake: "a sequence over maxTotalLen keeps its last tokens (the answer), not its first",
    fn: packVariant({ keepHead: true }),
  },
  {
    exercise: "agentLossMask",
    name: "keeps-eos",
    mistake: "generated pad and EOS ids are dropped from each turn (with their log-probs) before packing",
    fn: packVariant({ keepEos: true }),
  },
  {
    exercise: "agentLossMask",
    name: "max-len-one-allowed",
    mistake: "maxTotalLen = 1 was accepted: a row needs at least two ids (one log-prob to train on), so anything below 2 must throw",
    fn: packVariant({ maxLenOneAllowed: true }),
  },
  {
    exercise: "agentLossMask",
    name: "no-input-checks",
    mistake: "bad inputs were packed anyway: throw when maxTotalLen < 2, when the prompt is empty, or when a turn's ids and logps differ in length",
    fn: packVariant({ noInputChecks: true }),
  },
  {
    exercise: "agentLossMask",
    name: "observation-trained",
    mistake: "tool responses are the environment's words, not the model's: their mask is 0",
    fn: packVariant({ observationTrained: true }),
  },
  {
    exercise: "agentLossMask",
    name: "prompt-len",
    mistake: "promptLen is where the first trained token is after the cut, not the prompt's own length",
    fn: packVariant({ promptLenFromPrompt: true }),
  },
  {
    exercise: "agentLossMask",
    name: "spread-push",
    mistake: "a turn's ids or its observation were appended with push(...ids): spreading some 10^5 arguments overflows the call stack (RangeError); append in a loop or concatenate arrays",
    fn: packVariant({ spreadPush: true }),
  },
  {
    exercise: "agentLossMask",
    name: "unshifted-logps",
    mistake: "oldLogps has one entry per next-token prediction (length − 1): the prompt contributes one zero fewer than its length",
    fn: packVariant({ unshiftedLogps: true }),
  },
  {
    exercise: "agentReward",
    name: "calls-from-whole-turn",
    mistake: "tool calls were collected from each whole turn; MiniMind parses them from the turn's answer, the stripped text after its first </think>, so a <tool_call> written inside the thinking is not a call",
    fn: rewardVariant({ callsFromWholeTurn: true }),
  },
  {
    exercise: "agentReward",
    name: "case-sensitive-match",
    mistake: "the ground truth was matched case-sensitively; MiniMind lower-cases both sides (s.lower() in text.lower())",
    fn: rewardVariant({ caseSensitiveMatch: true }),
  },
  {
    exercise: "agentReward",
    name: "empty-gt-found",
    mistake: "an empty ground-truth item counted as found (\"\" is in every text); MiniMind's check needs a non-empty stripped item ((s := str(g).strip()) and …)",
    fn: rewardVariant({ emptyGtFound: true }),
  },
  {
    exercise: "agentReward",
    name: "invalid-counted-once",
    mistake: "an invalid call counts twice in the gap: once as a valid call missing and once as an extra call",
    fn: rewardVariant({ invalidCountedOnce: true }),
  },
  {
    exercise: "agentReward",
    name: "no-clip",
    mistake: "the total is clipped to [−3, 3]",
    fn: rewardVariant({ noClip: true }),
  },
  {
    exercise: "agentReward",
    name: "strict-bounds",
    mistake: "the length windows left out their ends; MiniMind's include them: 5 <= len <= 800 and 20 <= len(think) <= 300",
    fn: rewardVariant({ strictBounds: true }),
  },
  {
    exercise: "agentReward",
    name: "tags-last-turn",
    mistake: "unbalanced <tool_call> tags are counted in every turn's answer, not only the last",
    fn: rewardVariant({ tagsLastTurnOnly: true }),
  },
  {
    exercise: "agentReward",
    name: "tags-on-whole-turn",
    mistake: "the <tool_call> tag balance was counted on each whole turn; MiniMind counts it on the turn's answer (after its first </think>), so tags inside the thinking cost nothing",
    fn: rewardVariant({ tagsOnWholeTurn: true }),
  },
  {
    exercise: "agentReward",
    name: "text-match-only",
    mistake: "the ground truth also matches as a number: commas are removed and numbers compared within 1e-6 (3,402 is 3402)",
    fn: rewardVariant({ textMatchOnly: true }),
  },
  {
    exercise: "agentReward",
    name: "unfinished-keeps-text",
    mistake: "an unfinished rollout (still calling tools at the last turn) has no final answer: its final text is empty, so it gets no ground-truth credit",
    fn: rewardVariant({ unfinishedKeepsText: true }),
  },
  {
    exercise: "agentReward",
    name: "upper-case-match",
    mistake: "both sides were upper-cased to ignore case; MiniMind lower-cases them, and the two differ: 'ß' upper-cases to 'SS', so 'Straße' is not in 'STRASSE' to Python",
    fn: rewardVariant({ upperCaseMatch: true }),
  },
  {
    exercise: "agentReward",
    name: "utf16-length",
    mistake: "lengths are Python's len: code points after Python's strip (an emoji is 1, not 2)",
    fn: rewardVariant({ utf16Length: true }),
  },
  {
    exercise: "parseToolCalls",
    name: "greedy",
    mistake: "the block pattern is greedy: from the first <tool_call> to the last </tool_call> is one block, so two calls become one piece of broken JSON",
    fn: parseVariant({ greedy: true }),
  },
  {
    exercise: "parseToolCalls",
    name: "js-trim",
    mistake: "JavaScript's trim() is not Python's strip(): NEL (U+0085) is whitespace to Python, the byte-order mark is not",
    fn: parseVariant({ jsTrim: true }),
  },
  {
    exercise: "parseToolCalls",
    name: "stop-at-broken",
    mistake: "a block that is not JSON is skipped (MiniMind's except: pass), not the end of the parsing",
    fn: parseVariant({ stopAtBroken: true }),
  },
  {
    exercise: "parseToolCalls",
    name: "string-arguments",
    mistake: "arguments given as a JSON string must be parsed into an object (the rollout does json.loads on a string)",
    fn: parseVariant({ stringArgsUnparsed: true }),
  },
];
