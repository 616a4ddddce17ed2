/**
 * Lesson 21 — DPO data. Cases for exercises/lesson-21/dpo-data.ts: the lesson's worked example
 * on MiniMind's tokenizer, edge cases, seeded random pairs, and Python fixtures restating
 * dataset/lm_dataset.py:135-192 and trainer/train_dpo.py:59-67 (grader/lesson-21/parity.py).
 */
import { dataFixtureCases } from "../engine/data-cases.js";
import { minimindTokenizer } from "../engine/datasets.js";
import { Rng } from "../../lib/random.js";
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { EXACT } from "../engine/types.js";
import type { CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-21";

const turn = (q: string, a: string) => [
  { role: "user", content: q },
  { role: "assistant", content: a },
];

/** Draws given as a list replay in order. */
const listRandom = (values: number[]) => {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error(`the case supplies ${values.length} random draws and all were used`);
    return values[i++];
  };
};

const pairCase = (name: string, kind: CaseDef["kind"], chosen: object[], rejected: object[], maxLength: number, draws: number[], tokenizer: () => TextTokenizer = minimindTokenizer): CaseDef => ({
  name,
  kind,
  inputs: () => ({ chosen: structuredClone(chosen), rejected: structuredClone(rejected), tokenizer: tokenizer(), maxLength, random: listRandom(draws) }),
});

/** MiniMind's tokenizer with another pad token, <|buffer1|> (id 27): padding must use the tokenizer's pad id, not 0. */
function padTokenizer(): TextTokenizer {
  const tok = minimindTokenizer();
  const padId = tok.tokenToId("<|buffer1|>");
  if (padId === undefined) throw new Error("MiniMind's tokenizer has no <|buffer1|>");
  return { ...tok, padId };
}

/** A DpoSample of length L with seeded ids and a mask over a suffix. */
function randomSample(rng: Rng, L: number) {
  const ids = () => Array.from({ length: L }, () => rng.int(0, 6399));
  const mask = () => {
    const from = rng.int(0, L);
    return Array.from({ length: L }, (_, j) => (j >= from ? 1 : 0));
  };
  return { xChosen: ids(), yChosen: ids(), maskChosen: mask(), xRejected: ids(), yRejected: ids(), maskRejected: mask() };
}

const batchCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, L: number): CaseDef => ({
  name,
  kind,
  inputs: (): Inputs => {
    const rng = new Rng(seed);
    return { samples: Array.from({ length: B }, () => randomSample(rng, L)) };
  },
});

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "dpoSample",
      file: "dpo-data.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.chosen, x.rejected, x.tokenizer, x.maxLength, x.random),
      cases: [
        pairCase("worked example: \"2+2?\" answered 4 (chosen) or 5 (rejected), maxLength 24, draws 0.9 and 0.1", "worked", turn("2+2?", "4"), turn("2+2?", "5"), 24, [0.9, 0.1]),
        pairCase("maxLength cuts inside the assistant turn", "edge", turn("Name a prime.", "Seven is prime because it has no divisors but one and itself."), turn("Name a prime.", "Nine."), 20, [0.5, 0.5]),
        pairCase("a reasoning answer draws nothing for its (non-empty) think block", "edge", [{ role: "user", content: "3*3?" }, { role: "assistant", content: "9", reasoning_content: "3+3+3" }], turn("3*3?", "6"), 40, [0.3]),
        pairCase("a tokenizer whose pad id is not 0 (<|buffer1|>, id 27): the padding uses it", "edge", turn("2+2?", "4"), turn("2+2?", "5"), 32, [0.9, 0.1], padTokenizer),
        pairCase("two assistant turns: both masked", "edge", [...turn("a", "b"), ...turn("c", "d")], [...turn("a", "x"), ...turn("c", "y")], 48, [0.9, 0.9]),
        ...[11, 12].map((seed): CaseDef => {
          const rng = new Rng(seed);
          const say = () => ["yes", "no", "42", "巴黎", "I think so."][rng.int(0, 4)];
          return pairCase(`a random pair (seed ${seed})`, "random", turn(say(), say()), turn(say(), say()), rng.int(12, 40), [rng.next(), rng.next()]);
        }),
        ...dataFixtureCases(LESSON, "dpoSample", true),
      ],
    },
    {
      name: "dpoBatch",
      file: "dpo-data.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.samples),
      outputOrder: ["x", "y", "mask"],
      cases: [
        {
          name: "worked example: two pairs of length 3",
          kind: "worked",
          inputs: () => ({
            samples: [
              { xChosen: [1, 10, 11], yChosen: [10, 11, 2], maskChosen: [0, 1, 1], xRejected: [1, 10, 12], yRejected: [10, 12, 2], maskRejected: [0, 1, 1] },
              { xChosen: [1, 20, 21], yChosen: [20, 21, 2], maskChosen: [0, 0, 1], xRejected: [1, 20, 22], yRejected: [20, 22, 0], maskRejected: [0, 0, 1] },
            ],
          }),
        },
        batchCase("one pair", "edge", 13, 1, 5),
        batchCase("4 pairs of length 64 (seed 14)", "random", 14, 4, 64),
        batchCase("3 pairs of length 7 (seed 15)", "random", 15, 3, 7),
        ...dataFixtureCases(LESSON, "dpoBatch", false),
      ],
    },
  ],
};

export default grader;
