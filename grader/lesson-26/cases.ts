/**
 * Lesson 26 — tool use and agentic RL. Cases for solutions/lesson-26/tool-calls.ts
 * (`parseToolCalls`, `agentLossMask`) and agent-reward.ts (`agentReward`): the lesson's worked
 * example, edge cases (broken JSON, Python's whitespace, truncation, unfinished rollouts), seeded
 * cases, and fixtures that Python computed with MiniMind's own lines (grader/lesson-26/parity.py).
 */
import { fixtureCases } from "../engine/fixtures.js";
import { throwsCall } from "../engine/throws.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT } from "../engine/types.js";
import type { CaseDef, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-26";

const CALC = { type: "function", function: { name: "calculate", description: "Evaluate an arithmetic expression", parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] } } };
const WEATHER = { type: "function", function: { name: "get_current_weather", parameters: {} } };
const UNITS = { type: "function", function: { name: "unit_converter", parameters: {} } };

/** The worked example of lessons/26-tool-use-agentic-rl.md. */
export const WORKED_CALL = 'I will use the calculator.\n<tool_call>\n{"name": "calculate", "arguments": {"expression": "4212-810"}}\n</tool_call>';
export const WORKED_PACK = {
  promptIds: [5, 6, 7],
  turns: [
    { ids: [20, 21, 2], logps: [-0.5, -1.0, -0.1], observation: [30, 31] },
    { ids: [22, 2], logps: [-0.25, -0.3], observation: [] },
  ],
  padId: 0,
  eosId: 2,
  maxTotalLen: 8,
};
export const WORKED_TRAJECTORIES = [
  { trajectory: { completion: "4212 - 810 = 3402.", turnOutputs: [WORKED_CALL, "4212 - 810 = 3402."], unfinished: false }, gt: ["3402"], tools: [CALC] },
  { trajectory: { completion: "4212 - 810 = 3392.", turnOutputs: ["4212 - 810 = 3392."], unfinished: false }, gt: ["3402"], tools: [CALC] },
  { trajectory: { completion: "4212 - 810 = 3392.", turnOutputs: [WORKED_CALL, "4212 - 810 = 3392."], unfinished: false }, gt: ["3402"], tools: [CALC] },
];

/**
 * grader/lesson-26/parity.py parses and packs with Python's own re, json and lists (PyTorch only holds
 * agentReward's float32 sum), so those cases are labelled by what computed them.
 */
const pythonFixtures = (exercise: string): CaseDef[] =>
  fixtureCases(LESSON, exercise).map((c) => ({ ...c, name: c.name.replace(/^PyTorch fixture: /, "Python fixture: ") }));

const text = (name: string, kind: CaseDef["kind"], t: string): CaseDef => ({ name, kind, inputs: () => ({ text: t }) });
const call = (body: unknown) => `<tool_call>${typeof body === "string" ? body : JSON.stringify(body)}</tool_call>`;
const calc = (expression: unknown) => call({ name: "calculate", arguments: { expression } });

const pack = (name: string, kind: CaseDef["kind"], x: Record<string, unknown>): CaseDef => ({ name, kind, inputs: () => structuredClone({ ...WORKED_PACK, ...x }) });

/** A packing input the contract refuses: the case passes when the function throws (any message). */
const refused = (name: string, x: Record<string, unknown>): CaseDef => ({
  ...pack(name, "edge", x),
  call: throwsCall((fn, i) => fn(i.promptIds, i.turns, i.padId, i.eosId, i.maxTotalLen)),
  checks: "that the function throws on an input its contract refuses",
});

const traj = (name: string, kind: CaseDef["kind"], turnOutputs: string[], gt: string[], tools: unknown[] | null = [CALC], unfinished = false, completion?: string): CaseDef => ({
  name,
  kind,
  inputs: () => ({ trajectory: { completion: completion ?? turnOutputs[turnOutputs.length - 1] ?? "", turnOutputs: [...turnOutputs], unfinished }, gt: [...gt], tools }),
});

const SPACES = ["", " ", "\n", "\t", "\u3000", "\x85"];
const WORDS = ["the", "answer", "is", "so", "café", "ok", "=", "x5", "3.5", "1,200", "-7"];

/** A seeded model turn: maybe a </think>, words, `calls` tool blocks of assorted kinds, maybe a number. */
function randomTurn(rng: Rng, calls: number, gt: string[]): string {
  const pick = <T>(xs: readonly T[]) => xs[rng.int(0, xs.length - 1)];
  const words = (lo: number, hi: number) => Array.from({ length: rng.int(lo, hi) }, () => pick(WORDS)).join(" ");
  let out = rng.next() < 0.3 ? `${words(0, 8)}${pick(SPACES)}</think>${pick(SPACES)}` : "";
  out += words(0, 4);
  for (let i = 0; i < calls; i++) {
    const k = rng.next();
    const body =
      k < 0.5
        ? { name: "calculate", arguments: { expression: `${rng.int(1, 9999)}+${rng.int(1, 999)}` } }
        : k < 0.6
          ? { name: "calculate", arguments: JSON.stringify({ expression: "2+2" }) }
          : k < 0.7
            ? { name: pick(["get_current_weather", "unit_converter", "nope"]), arguments: pick([{ location: "Paris" }, { value: 0, from_unit: "km", to_unit: "miles" }, {}]) }
            : k < 0.8
              ? { name: "calculate" }
              : k < 0.9
                ? { name: "calculate", arguments: "not json" }
                : '{"name": "calculate", "arguments": {';
    out += `${pick(SPACES)}${call(body)}`;
  }
  if (rng.next() < 0.1) out += pick(["<tool_call>", "</tool_call>"]);
  if (gt.length > 0 && rng.next() < 0.5) out += ` ${pick([gt[0], `${gt[0]}.`, `${Number(gt[0]).toLocaleString("en-US")}`, String(Number(gt[0]) + 1)])}`;
  return out + pick(SPACES) + words(0, 3);
}

/** A seeded rollout for agentLossMask: prompt, 0-3 turns with pad/EOS ids sprinkled in, observations. */
function randomRollout(rng: Rng, long: boolean) {
  const promptIds = Array.from({ length: rng.int(1, 12) }, () => rng.int(3, 2047));
  const turns = Array.from({ length: rng.int(0, 3) }, () => {
    const n = rng.int(0, long ? 200 : 10);
    const ids = Array.from({ length: n }, () => (rng.next() < 0.15 ? rng.int(0, 1) * 2 : rng.int(3, 2047)));
    return { ids, logps: ids.map(() => -rng.uniform(0, 4)), observation: Array.from({ length: rng.int(0, long ? 120 : 8) }, () => rng.int(3, 2047)) };
  });
  return { promptIds, turns, padId: 0, eosId: 2 };
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "parseToolCalls",
      file: "tool-calls.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.text),
      cases: [
        text("worked example: one calculator call after a sentence", "worked", WORKED_CALL),
        text("no tool call", "edge", "4212 - 810 = 3402."),
        text("an empty text", "edge", ""),
        text("two calls on one line: each block on its own (a greedy match swallows both)", "edge", `${calc("1+2")}${calc("3*4")}`),
        text("broken JSON between good calls: the broken one is skipped, the rest still parse", "edge", `${calc("2+3")} ${call('{"name": "calculate", "arguments": {')} then ${calc("5-1")}`),
        text("JSON that is not an object (a list, a number) is not a call", "edge", `${call("[1, 2]")}${call("7")}${calc("9/3")}`),
        text("arguments as a JSON string are parsed", "edge", call({ name: "calculate", arguments: JSON.stringify({ expression: "2+2" }) })),
        text("arguments as a string that is not JSON give {}", "edge", call({ name: "calculate", arguments: "2+2" })),
        text("no arguments give {}, no name gives \"\"", "edge", `${call({ name: "now" })}${call({ arguments: { q: 1 } })}`),
        text("a name that is not a string gives \"\"; arguments that are not an object give {}", "edge", call({ name: 5, arguments: [1, 2] })),
        text("Python's strip: NEL (U+0085) around the JSON is whitespace", "edge", `<tool_call>\x85${JSON.stringify({ name: "a", arguments: {} })}\x85</tool_call>`),
        text("Python's strip: a byte-order mark is not whitespace, so json.loads fails", "edge", `${call({ name: "z" })}<tool_call>\ufeff${JSON.stringify({ name: "a" })}</tool_call>${call({ name: "b" })}`),
        text("a block spanning lines, and an unclosed block that is ignored", "edge", `<tool_call>\n{"name": "calculate",\n "arguments": {"expression": "6*7"}}\n</tool_call>\n<tool_call>{"name": "x"}`),
        {
          name: "24 seeded turns (seed 26)",
          kind: "random",
          inputs: () => {
            const rng = new Rng(26);
            return { texts: Array.from({ length: 24 }, () => randomTurn(rng, rng.int(0, 3), ["42"])) };
          },
          call: (fn, x) => (x.texts as string[]).map((t) => fn(t)),
        },
        {
          name: "a long text: 300 calls among 20 000 characters",
          kind: "random",
          inputs: () => {
            const rng = new Rng(261);
            return { text: Array.from({ length: 300 }, (_, i) => `${"word ".repeat(rng.int(5, 20))}${i % 7 === 3 ? call("{oops") : calc(`${i}+${i}`)}`).join("\n") };
          },
        },
        ...pythonFixtures("parseToolCalls"),
      ],
    },
    {
      name: "agentLossMask",
      file: "tool-calls.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.promptIds, x.turns, x.padId, x.eosId, x.maxTotalLen),
      outputOrder: ["inputIds", "mask", "oldLogps", "promptLen"],
      cases: [
        pack("worked example: a call, a tool response, an answer (EOS dropped), exactly maxTotalLen", "worked", {}),
        pack("worked example cut to maxTotalLen 6: the prompt's head is dropped", "edge", { maxTotalLen: 6 }),
        pack("no turns: only the prompt, promptLen = its length", "edge", { turns: [] }),
        pack("a turn that generated only EOS: nothing kept, its observation still appended", "edge", { turns: [{ ids: [2], logps: [-0.1], observation: [40, 41] }] }),
        pack("pad ids are dropped like EOS", "edge", { turns: [{ ids: [0, 25, 0, 2], logps: [-1, -2, -3, -4], observation: [] }] }),
        pack("a one-token prompt: no leading zeros in oldLogps", "edge", { promptIds: [9] }),
        pack("cut inside the generated tokens: promptLen 0", "edge", { maxTotalLen: 2, turns: [{ ids: [20, 21, 22, 23], logps: [-1, -2, -3, -4], observation: [] }] }),
        pack("cut so that only observation tokens remain: promptLen = the length", "edge", { maxTotalLen: 3, turns: [{ ids: [20], logps: [-1], observation: [30, 31, 32, 33] }] }),
        pack("EOS and pad ids inside the prompt and a tool response are kept: only generated ids are filtered", "edge", {
          promptIds: [5, 2, 6, 0],
          turns: [{ ids: [20, 0, 21, 2], logps: [-0.5, -0.7, -1.0, -0.1], observation: [30, 2, 31] }],
          maxTotalLen: 16,
        }),
        refused("maxTotalLen 1 throws: a row needs two ids", { maxTotalLen: 1 }),
        refused("an empty prompt throws", { promptIds: [] }),
        refused("a turn with more ids than log-probs throws", { turns: [WORKED_PACK.turns[0], { ids: [22, 23, 2], logps: [-0.25, -0.3], observation: [] }] }),
        {
          name: "16 seeded rollouts (seed 2626), maxTotalLen 24",
          kind: "random",
          inputs: () => {
            const rng = new Rng(2626);
            return { rollouts: Array.from({ length: 16 }, () => randomRollout(rng, false)) };
          },
          call: (fn, x) => (x.rollouts as Array<Record<string, unknown>>).map((r) => fn(r.promptIds, r.turns, r.padId, r.eosId, 24)),
        },
        {
          name: "4 long rollouts (seed 2627), maxTotalLen 512",
          kind: "random",
          inputs: () => {
            const rng = new Rng(2627);
            return { rollouts: Array.from({ length: 4 }, () => randomRollout(rng, true)) };
          },
          call: (fn, x) => (x.rollouts as Array<Record<string, unknown>>).map((r) => fn(r.promptIds, r.turns, r.padId, r.eosId, 512)),
        },
        {
          // One array of 130 000 ids: just above the ~126 000 arguments (a 984 KB stack) a spread call takes in
          // Node before a RangeError, and no larger: the grader hashes and snapshots every input element.
          name: "a tool response of 130 000 ids, maxTotalLen 512: nothing may spread it as arguments",
          kind: "random",
          inputs: () => ({ ...structuredClone(WORKED_PACK), turns: [{ ids: [20, 2], logps: [-0.5, -0.1], observation: Array.from({ length: 130_000 }, (_, i) => 3 + ((i * 7919) % 2045)) }], maxTotalLen: 512 }),
        },
        ...pythonFixtures("agentLossMask"),
      ],
    },
    {
      name: "agentReward",
      file: "agent-reward.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.trajectory, x.gt, x.tools),
      cases: [
        {
          name: "worked example: called the tool and answered right; answered in its head, wrong; called the tool and answered wrong",
          kind: "worked",
          inputs: () => ({ items: structuredClone(WORKED_TRAJECTORIES) }),
          call: (fn, x) => (x.items as Array<Record<string, unknown>>).map((i) => fn(i.trajectory, i.gt, i.tools)),
        },
        traj("no tool call, a short answer (< 5 characters): −0.5", "edge", ["3402"], ["3402"]),
        traj("no tool call with a think block of 20+ characters: +0.5 +1.0 +0.25", "edge", ["I should subtract these carefully.</think>\nIt is 3402."], ["3402"]),
        traj("two </think>: the think closes twice, −0.25", "edge", ["short</think> a </think> It is 3402."], ["3402"]),
        traj("an unbalanced <tool_call> tag in an earlier turn costs 0.5 even with no parsed call", "edge", ["<tool_call> oops", "The answer is 3402."], ["3402"]),
        traj("unfinished: the final text is empty (no GT credit) and −0.5", "edge", [WORKED_CALL, calc("3402+0"), `${calc("1+1")} 3402`], ["3402"], [CALC], true),
        traj("an invalid call (unknown tool) counts in the gap twice: as missing and as extra", "edge", [call({ name: "search", arguments: { q: "x" } }), "It is 3402."], ["3402"]),
        traj("a call with empty arguments is not valid", "edge", [call({ name: "calculate", arguments: { expression: "" } }), "It is 3402."], ["3402"]),
        traj("tools null: no name is valid", "edge", [WORKED_CALL, "It is 3402."], ["3402"], null),
        traj("the number found with thousands separators: 3,402 equals 3402", "edge", [WORKED_CALL, "So the result is 3,402 in total"], ["3402"]),
        traj("a number glued to a letter or a dot does not count as a number; as text it still does", "edge", [WORKED_CALL, "x3402 and 3402.5"], ["3402.0"]),
        traj("two GT items, one found: half the 2.5", "edge", [WORKED_CALL, calc("3+4"), "12 then 8"], ["12", "7"]),
        traj("GT as text, case-insensitive with Python's lower(): 'PARIS' has 'Paris', 'STRASSE' has no 'Straße'", "edge", [WORKED_CALL, "It is PARIS, on the STRASSE."], ["Paris", "Straße"]),
        traj("a GT item that strips to \"\" is never found", "edge", [WORKED_CALL, calc("1+1"), "It is 3402."], [" \n", "3402"]),
        traj("repeated GT items count once in the found set, twice in len(gt)", "edge", [WORKED_CALL, "3402"], ["3402", "3402"]),
        traj("the answer after the last </tool_call> of the final turn", "edge", [`${calc("1+1")} 3402 ${calc("2+2")} wrong 17`], ["3402"]),
        traj("GT empty: no GT term, the gap is the number of valid calls", "edge", [WORKED_CALL, "Done."], []),
        traj("a long repetitive answer: the repetition penalty is capped at 0.5", "edge", ["the answer is ".repeat(12)], []),
        traj(
          "a <tool_call> inside the thinking is not a call: calls come from the text after </think>",
          "edge",
          ['<think>\nI could call <tool_call>{"name": "calculate", "arguments": {"expression": "1+1"}}</tool_call> here\n</think>\nThe answer is 2.'],
          ["2"],
        ),
        traj("an unclosed <tool_call> inside the thinking costs nothing: tags are counted after </think>", "edge", ["<think>\nmaybe a <tool_call> later, or not at all\n</think>\nThe answer is 3402."], ["3402"]),
        traj("very low rewards are clipped at −3", "edge", ["<tool_call><tool_call><tool_call><tool_call><tool_call><tool_call><tool_call> x"], []),
        traj("a reply of 801 characters is too long", "edge", ["y".repeat(801)], []),
        traj("exactly 5 characters: inside the length window", "edge", ["Done!"], []),
        traj("a thinking of exactly 20 characters: inside its window", "edge", [`${"t".repeat(20)}</think>The answer is ready.`], []),
        traj("length in code points: 3 emoji are 3 characters, too short (JavaScript's length says 6)", "edge", ["😀😀😀"], []),
        traj("other tools with MiniMind's checks: unit_converter with value 0 is valid", "edge", [call({ name: "unit_converter", arguments: { value: 0, from_unit: "km", to_unit: "miles" } }), call({ name: "get_current_weather", arguments: { location: "" } }), "0 miles"], ["0", "x"], [CALC, WEATHER, UNITS]),
        {
          name: "32 seeded trajectories (seed 2600)",
          kind: "random",
          inputs: () => {
            const rng = new Rng(2600);
            return {
              items: Array.from({ length: 32 }, () => {
                const gt = [[String(rng.int(10, 99999))], [], ["Paris"], ["12", "7"]][rng.int(0, 3)];
                const n = rng.int(1, 3);
                const turns = Array.from({ length: n }, (_, t) => randomTurn(rng, t < n - 1 ? rng.int(0, 2) : rng.int(0, 3) === 0 ? 1 : 0, gt));
                const unfinished = n === 3 && turns[2].includes("<tool_call>{");
                return { trajectory: { completion: turns[n - 1], turnOutputs: turns, unfinished }, gt, tools: [[CALC], [CALC, WEATHER, UNITS], null][rng.int(0, 2)] };
              }),
            };
          },
          call: (fn, x) => (x.items as Array<Record<string, unknown>>).map((i) => fn(i.trajectory, i.gt, i.tools)),
        },
        ...fixtureCases(LESSON, "agentReward"),
      ],
    },
  ],
};

export default grader;
