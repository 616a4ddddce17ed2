/**
 * Lesson 27 — Conversion, API and web UI. Cases for solutions/lesson-27/parse-reply.ts: the
 * lesson's worked reply, edge cases (no thinking, broken or non-object tool JSON, several think
 * blocks, Python's whitespace), seeded replies, and fixtures that Python's own re/json computed
 * with MiniMind's parse_response (grader/lesson-27/parity.py).
 */
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { EXACT } from "../engine/types.js";
import type { CaseDef, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-27";

/** The worked example of lessons/27-conversion-api-webui.md: a reply to a prompt that opened <think>. */
const WORKED_REPLY = 'The user wants the weather in Paris.\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call>';

/** A reply case; without `idPrefix` the function is called with one argument, so its default is graded. */
const reply = (name: string, kind: CaseDef["kind"], text: string, idPrefix?: string): CaseDef => ({
  name,
  kind,
  inputs: () => (idPrefix === undefined ? { text } : { text, idPrefix }),
});

/**
 * grader/lesson-27/parity.py computes its expectations with Python's own re, str.strip and json (no
 * PyTorch is involved), so its cases are labelled by what computed them.
 */
const pythonFixtures = (): CaseDef[] =>
  fixtureCases(LESSON, "parseAssistantText").map((c) => ({ ...c, name: c.name.replace(/^PyTorch fixture: /, "Python fixture: ") }));

const WORDS = ["the", "weather", "is", "sunny", "42", "你好", "café", "😀", "Paris", "yes"];
const SPACES = ["", " ", "\n", "\n\n", "\t", "\u3000", "\x85"];

/** A seeded reply: maybe thinking, words, 0-3 tool blocks (some broken), maybe a second think block. */
function randomReply(rng: Rng): string {
  const pick = <T>(xs: readonly T[]) => xs[rng.int(0, xs.length - 1)];
  const words = (lo: number, hi: number) => Array.from({ length: rng.int(lo, hi) }, () => pick(WORDS)).join(" ");
  let out = "";
  const shape = rng.next();
  if (shape < 0.35) out += `${pick(SPACES)}<think>${pick(SPACES)}${words(0, 5)}${pick(SPACES)}</think>${pick(SPACES)}`;
  else if (shape < 0.55) out += `${words(0, 5)}${pick(SPACES)}</think>${pick(SPACES)}`;
  out += words(0, 5);
  for (let i = rng.int(0, 3); i > 0; i--) {
    const kind = rng.next();
    const body =
      kind < 0.6
        ? JSON.stringify({ name: pick(["get_weather", "search", "calc"]), arguments: { city: pick(["Paris", "東京"]), n: rng.int(0, 9), ok: rng.next() < 0.5, tags: ["a", "b"] } })
        : kind < 0.75
          ? JSON.stringify({ name: "search" })
          : kind < 0.9
            ? '{"name": "broken", "arguments": {'
            : "[1, 2]";
    out += `${pick(SPACES)}<tool_call>${pick(SPACES)}${body}${pick(SPACES)}</tool_call>`;
  }
  if (rng.next() < 0.2) out += `${pick(SPACES)}<think>${words(1, 3)}</think>`;
  return out + pick(SPACES) + words(0, 3) + pick(SPACES);
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "parseAssistantText",
      file: "parse-reply.ts",
      tolerance: EXACT,
      call: (fn, x) => (x.idPrefix === undefined ? fn(x.text) : fn(x.text, x.idPrefix)),
      outputOrder: ["reasoningContent", "toolCalls", "content"],
      cases: [
        reply("worked example: thinking closed by </think>, a tool call", "worked", WORKED_REPLY),
        reply("an empty reply", "edge", ""),
        reply("plain text, surrounded by whitespace", "edge", "  \nThe answer is 5.\n\n"),
        reply("a full <think> block: reasoning stripped, the block and the whitespace after it removed", "edge", "<think>\nadd them\n</think>\n\nThe answer is 5."),
        reply("an empty think block gives \"\", not null", "edge", "<think>\n\n</think>\n\nHi."),
        reply("two think blocks: the first is the reasoning, both leave the content", "edge", "<think>one</think> A <think>two</think> B"),
        reply("a lone <think> without its end is plain text", "edge", "<think> still thinking"),
        reply("two </think> without <think>: split at the first", "edge", "a </think> b </think> c"),
        reply("a tool call without arguments gets {}", "edge", '<tool_call>{"name": "now"}</tool_call>'),
        reply("a tool call without a name gets \"\"", "edge", '<tool_call>{"arguments": {"q": 1}}</tool_call>'),
        reply("a null name and null arguments stay null and \"null\" (Python's get defaults only a missing key)", "edge", '<tool_call>{"name": null, "arguments": null}</tool_call>'),
        reply("string arguments are written as a JSON string", "edge", '<tool_call>{"name": "f", "arguments": "{\\"a\\": 1}"}</tool_call>'),
        reply("nested arguments: Python's separators at every level", "edge", '<tool_call>{"name":"f","arguments":{"a":[1,{"b":null}],"c":"é"}}</tool_call>'),
        reply("only broken tool JSON: nothing parsed, the blocks stay in the content", "edge", 'Calling <tool_call>{"name": "f", </tool_call> now'),
        reply("a broken block first: the good one is call_1, and both blocks leave the content", "edge", 'x <tool_call>oops</tool_call> y <tool_call>{"name": "g", "arguments": {}}</tool_call> z'),
        reply("JSON that is not an object is skipped", "edge", '<tool_call>["f"]</tool_call><tool_call>{"name": "h"}</tool_call>'),
        reply("two tool calls on one line: each block on its own", "edge", '<tool_call>{"name": "a"}</tool_call><tool_call>{"name": "b"}</tool_call>'),
        reply("Python's strip: NEL (U+0085) is whitespace, the BOM is not", "edge", "\x85\ufeffhi\x85"),
        reply("the id prefix", "edge", '<tool_call>{"name": "a"}</tool_call>', "call_1700000000"),
        {
          name: "24 seeded replies (seed 27)",
          kind: "random",
          inputs: () => {
            const rng = new Rng(27);
            return { texts: Array.from({ length: 24 }, () => randomReply(rng)) };
          },
          call: (fn, x) => (x.texts as string[]).map((t, i) => fn(t, `call_r${i}`)),
        },
        {
          name: "a long reply: 200 tool calls and 20 000 characters of text",
          kind: "random",
          inputs: () => {
            const rng = new Rng(270);
            const parts = Array.from({ length: 200 }, (_, i) => `${"word ".repeat(rng.int(5, 30))}<tool_call>{"name": "f${i}", "arguments": {"i": ${i}}}</tool_call>`);
            return { text: `<think>${"t".repeat(2000)}</think>${parts.join("\n")}`, idPrefix: "call" };
          },
        },
        ...pythonFixtures(),
      ],
    },
  ],
};

export default grader;
