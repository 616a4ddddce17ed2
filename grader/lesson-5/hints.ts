/** Hints for lesson 5 (SFT data and labels): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-5",
  functions: {
    sftLabels: {
      nudge: "Which tokens should the model be trained to produce: the user's question, or the assistant's reply? And should it learn to stop?",
      keyIdea:
        "Walk i from 0. Where the start marker sequence matches at i, the span begins right after it; walk forward to the next end marker. Label from the span start through the end marker's last id, but never at or beyond maxLength. " +
        "Jump past the end marker and continue; with no end marker, the span runs to the last id and the scan stops.",
      formula: "labels = [-100]*n; for j in [start, min(end + |eos|, maxLength)): labels[j] = ids[j]. MiniMind: dataset/lm_dataset.py:88-104 @ d65ef2c.",
    },
    preProcessingChat: {
      nudge: "Two cases leave a conversation untouched before any randomness is drawn. Which?",
      keyIdea: "Tools anywhere, or a first message that is already a system message: return it as is. Otherwise draw once; below the ratio, draw again to pick a prompt and prepend it as a new system message.",
      formula: "if any(m.tools): return conv; if conv[0].role != 'system' and random() < ratio: return [{system, prompts[⌊random()·n⌋]}] + conv. MiniMind: dataset/lm_dataset.py:9-29 @ d65ef2c.",
    },
    postProcessingChat: {
      nudge: "MiniMind's Python `and` short-circuits. When is random() not called at all?",
      keyIdea: "Only a prompt containing the empty think block draws; a draw above the ratio removes every occurrence (split/join or replaceAll, not replace).",
      formula: "if EMPTY in prompt and random() > ratio: prompt = prompt.replaceAll(EMPTY, ''). MiniMind: dataset/lm_dataset.py:31-35 @ d65ef2c.",
    },
    sftSample: {
      nudge: "Everything you need is already written: the template (lesson 4), the two processing steps and the label scan. In what order does MiniMind call them?",
      keyIdea:
        "Markers = encode('<|im_start|>assistant\\n') and encode('<|im_end|>\\n'). Pre-process, collect tools from a system message and parse string tool_calls, render, post-process, encode, cut to maxLength, pad with padId, then label.",
      formula: "ids = encode(post(render(pre(conv), tools)))[:L] + [pad]*(L − n); labels = sftLabels(ids, bos, eos, L). MiniMind: dataset/lm_dataset.py:65-86, 106-113 @ d65ef2c.",
    },
  },
};

export default hints;
