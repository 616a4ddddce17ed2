/** Hints for lesson 27 (conversion, API and web UI): one nudge, one key idea and one formula. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-27",
  functions: {
    parseAssistantText: {
      nudge:
        "When the server asks the model to think, the prompt already ends with <think>: what does the generated text contain then, and how can you still find the thinking? " +
        "And what should happen to a <tool_call> block whose inside is not valid JSON?",
      keyIdea:
        "Three steps in order. (1) Thinking: if the text holds <think>…</think>, the reasoning is the inside of the first such block, stripped, and every block (with the whitespace after it) is removed; " +
        "else, if it holds a bare </think>, the reasoning is everything before the first one and the content everything after, both stripped; else reasoning is null. " +
        "(2) Tool calls: find every <tool_call>…</tool_call> lazily (a greedy match swallows the text between two calls); JSON.parse each stripped inside; keep only objects; the id uses the block's index among all blocks. " +
        "(3) Only if some call parsed, remove all blocks from the content. Strip with Python's whitespace, not trim(): copy PY_WHITESPACE from exercises/lesson-25/python-text.ts into your file (an import from another lesson's folder brings only its functions).",
      formula:
        "Each call: its id is the prefix, an underscore and the block's index among all blocks; its type is \"function\"; its function name is the value under \"name\" when that key is present, else the empty string; " +
        "its arguments are the value under \"arguments\" when present, else an empty object, written as Python's json.dumps writes them " +
        "(Python's get defaults only a missing key: {\"name\": null, \"arguments\": null} gives null and \"null\", not '' and \"{}\"; the prefix defaults to \"call\", never the clock). " +
        "json.dumps style: an array is its items joined by a comma and a space inside brackets, an object its \"key\": value pairs joined the same way inside braces, and every other value as JSON.stringify writes it. " +
        "Three patterns, all lazy and across lines: the first think block with its inside captured; every think block with the whitespace after it; every tool_call block with its inside captured. " +
        "MiniMind: scripts/serve_openai_api.py:83-102 @ d65ef2c.",
    },
  },
};

export default hints;
