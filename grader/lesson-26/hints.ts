/** Hints for lesson 26 (tool use and agentic RL): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-26",
  functions: {
    parseToolCalls: {
      nudge:
        "Two calls on one line: does your pattern find two blocks or one? And what does MiniMind do with a block whose inside is not valid JSON: stop, raise, or move on?",
      keyIdea:
        "Find every <tool_call>…</tool_call> with a lazy match that crosses newlines; strip the inside with Python's whitespace (not trim(): NEL is whitespace to Python, the BOM is not), JSON.parse it inside try/catch, and skip what fails or is not a plain object. " +
        "Then read each call the way the rollout does: name when it is a string, arguments parsed again when they are a string, and {} for anything that is not an object.",
      formula:
        "For each <tool_call>…</tool_call> block (matched lazily, across lines): parse its inside, stripped with Python's whitespace, as JSON; a block that does not parse, or parses to anything but a plain object, is skipped. " +
        "Its arguments: the value under \"arguments\" when that key is present, else an empty object; a string there is parsed as JSON once more (an empty object if that fails); whatever is still not an object becomes an empty object. " +
        "Its name: the value under \"name\" when it is a string, else the empty string. " +
        "pyStrip uses PY_WHITESPACE from exercises/lesson-25/python-text.ts (copy it into your file). MiniMind: trainer/train_agent.py:77-82 and 137-141 @ d65ef2c.",
    },
    agentLossMask: {
      nudge:
        "Which tokens of a multi-turn rollout did the policy actually sample? Those are the only ones whose log-prob ratio means anything. And oldLogps[t] belongs to which token: inputIds[t] or inputIds[t + 1]?",
      keyIdea:
        "Build three parallel lists over the response: for each turn, the generated ids that are not pad/EOS with mask 1 and their sampled log-probs, then the observation ids with mask 0 and log-prob 0. " +
        "Prefix the prompt: ids = prompt + response, mask = zeros(prompt) + response mask, oldLogps = zeros(prompt − 1) + response log-probs (one entry per next-token prediction). " +
        "Only generated ids are filtered: the prompt and the observations keep every id, an EOS id included. " +
        "If ids are longer than maxTotalLen keep the tail of each (the last maxTotalLen ids and mask entries, the last maxTotalLen − 1 log-probs). promptLen is the index of the first 1 in the cut mask. " +
        "Check the inputs first (maxTotalLen ≥ 2, a non-empty prompt, as many logps as ids per turn) and throw; append with loops, not push(...ids), which overflows the stack for long turns.",
      formula:
        "ids = p ++ r; mask = 0^|p| ++ m; old = 0^(|p|−1) ++ lp; if |ids| > L: ids = ids[−L:], mask = mask[−L:], old = old[−(L−1):]; promptLen = mask.indexOf(1) (or |mask|). " +
        "MiniMind: trainer/train_agent.py:123-130 (drop pad/EOS), 148-152 (observation: mask 0, logp 0), 255-264 (packing and truncation) @ d65ef2c.",
    },
    agentReward: {
      nudge:
        "Start from the two branches: did the model call any tool in any turn, or not? A trajectory that calls tools is scored on the calls and the final answer; one that does not is scored like lesson 25's format rules.",
      keyIdea:
        "Turn answers: each turn's text after its first </think>, stripped. Tool calls are parsed from the turn answers, and the tag penalty, 0.5 × |#<tool_call> − #</tool_call>|, is summed over them: a <tool_call> written inside the thinking neither calls nor costs. " +
        "No calls: ±0.5 for 5 ≤ len(completion.strip()) ≤ 800; with a </think>, +1.0/−0.5 for the think length in [20, 300] and ±0.25 for exactly one </think>; minus repetitionPenalty(answer). " +
        "Calls: count the valid ones (name in tools and CHECK_ARGS[name](arguments)); gap = |valid − len(gt)| + (calls − valid); +0.5 if gap is 0 else −0.5·gap. " +
        "Final text: '' when unfinished, else the last answer after its last </tool_call>. Add 2.5 × (distinct gt items found)/len(gt) when gt is non-empty (an item is found as lower-cased text, never when it strips to '', or as a number); −0.5 if unfinished; minus repetitionPenalty(final text, or the answer when it is empty). Clip to [−3, 3].",
      formula:
        "found(g): s = strip(g); (s ≠ '' and lower(s) ⊂ lower(text)) or (s without commas fully matches [-+]?\\d+(\\.\\d+)? and some number n of the comma-free text has |float(s) − n| < 1e-6), " +
        "numbers found with (?<![\\w.])[-+]?\\d+(?:\\.\\d+)?(?![\\w.]) where \\w is Unicode (\\p{L}\\p{N}_ in JavaScript). Lengths are code points ([...s].length). " +
        "MiniMind: trainer/train_agent.py:183-239 @ d65ef2c.",
    },
  },
};

export default hints;
