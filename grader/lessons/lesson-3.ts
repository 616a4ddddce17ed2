/**
 * Lesson 3 — Inference end to end: choosing the next token. Cases for
 * exercises/lesson-3/sampling.ts: the lesson's worked example, edge cases (filters off, top-k = 1,
 * a tiny top-p, ties at the k-th logit, nothing seen yet, identical rows), seeded random batches
 * (MiniMind's defaults on its 6400-token vocabulary among them), and PyTorch fixtures of
 * MiniMind's filtering lines (tools/parity/lesson_3.py).
 *
 * The filtered distribution is graded as well as the sampled token, so a wrong order of
 * operations fails even when a draw happens to land on the same token.
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../engine/random.js";
import { ELEMENTWISE, EXACT } from "../engine/types.js";
import type { CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-3";

interface Knobs {
  temperature: number;
  topK: number;
  topP: number;
  repetitionPenalty: number;
}

/** MiniMind's `generate` defaults (model/model_minimind.py:257). */
const GENERATE_DEFAULTS: Knobs = { temperature: 0.85, topK: 50, topP: 0.85, repetitionPenalty: 1.0 };

/** The numbers of lessons/03-inference-end-to-end.md § Worked example. */
function workedInputs(): Inputs {
  return {
    logits: tf.tensor1d([3.0, 2.5, 1.0, 0.5, -1.0, 2.0]),
    opts: { temperature: 0.5, topK: 4, topP: 0.9, repetitionPenalty: 2, previousTokens: tf.tensor1d([1, 4, 1], "int32"), seed: 4 },
  };
}

interface BatchSpec extends Knobs {
  B: number;
  V: number;
  /** Previous tokens per row (ids drawn with repeats); 0 for an empty [B, 0] history. */
  seen?: number;
  /** Logit spread (std of the normal draws). */
  spread?: number;
  /** Every row gets the same logits. */
  identicalRows?: boolean;
}

function randomInputs(seed: number, spec: BatchSpec): Inputs {
  const rng = new Rng(seed);
  const { B, V } = spec;
  const row = () => rng.normals(V, 0, spec.spread ?? 2);
  const first = row();
  const logits = new Float32Array(B * V);
  for (let b = 0; b < B; b++) logits.set(b === 0 || spec.identicalRows ? first : row(), b * V);
  const opts: Inputs = {
    temperature: spec.temperature,
    topK: spec.topK,
    topP: spec.topP,
    repetitionPenalty: spec.repetitionPenalty,
    seed: seed * 7919,
  };
  if (spec.seen !== undefined) {
    const S = spec.seen;
    // Half the history repeats a few ids, so a penalty applied per occurrence differs from once per id.
    const ids = Int32Array.from({ length: B * S }, (_, i) => (i % S < S / 2 ? rng.int(0, 3) : rng.int(0, V - 1)));
    opts.previousTokens = tf.tensor2d(ids, [B, S], "int32");
  }
  return { logits: tf.tensor2d(logits, [B, V]), opts };
}

function describe(seed: number, s: BatchSpec): string {
  const seen = s.seen === undefined ? "" : `, ${s.seen} seen`;
  return `seed ${seed}, B=${s.B} V=${s.V}, T=${s.temperature} k=${s.topK} p=${s.topP} θ=${s.repetitionPenalty}${seen}`;
}

const batchCase = (name: string, kind: CaseDef["kind"], seed: number, spec: BatchSpec): CaseDef => ({
  name: `${name} (${describe(seed, spec)})`,
  kind,
  inputs: () => randomInputs(seed, spec),
});

const tiedInputs = (): Inputs => ({
  logits: tf.tensor2d([[1, 2, 2, 2, 0, -1], [0.5, 3, 3, 1, 1, 2]]),
  opts: { temperature: 1, topK: 2, topP: 1, repetitionPenalty: 1, seed: 3 },
});

/** The cases both functions share: each is graded on its distribution and on its draw. */
function sharedCases(suffix: string): CaseDef[] {
  const cases: CaseDef[] = [
    { name: "worked example: T=0.5, θ=2, k=4, p=0.9, seed 4", kind: "worked", inputs: workedInputs },
    batchCase("every filter on, repeated history", "random", 1, { B: 4, V: 32, temperature: 0.85, topK: 8, topP: 0.9, repetitionPenalty: 1.3, seen: 6 }),
    batchCase("MiniMind's generate defaults on its vocabulary", "random", 2, { B: 2, V: 6400, ...GENERATE_DEFAULTS }),
    batchCase("eval_llm.py's settings with a penalty", "random", 3, { B: 3, V: 400, ...GENERATE_DEFAULTS, topP: 0.95, repetitionPenalty: 1.2, seen: 20 }),
    batchCase("a hot temperature before top-p", "random", 4, { B: 6, V: 24, temperature: 2, topK: 0, topP: 0.5, repetitionPenalty: 1, spread: 3 }),
    batchCase("a penalty on a broad top-k", "random", 5, { B: 6, V: 40, temperature: 1, topK: 20, topP: 0.7, repetitionPenalty: 1.5, seen: 8, spread: 1 }),
    batchCase("the penalty alone: seen positive scores shrink, seen negative ones grow more negative", "random", 11, { B: 4, V: 16, temperature: 0.9, topK: 0, topP: 1, repetitionPenalty: 1.8, seen: 6 }),
    batchCase("filters off: softmax(logits / T)", "edge", 6, { B: 8, V: 10, temperature: 0.7, topK: 0, topP: 1, repetitionPenalty: 1 }),
    batchCase("top-k = 1: the argmax after the penalty", "edge", 7, { B: 4, V: 12, temperature: 1, topK: 1, topP: 1, repetitionPenalty: 3, seen: 4 }),
    batchCase("a tiny top-p keeps only the most likely token", "edge", 8, { B: 4, V: 12, temperature: 1, topK: 0, topP: 0.01, repetitionPenalty: 1 }),
    { name: "ties at the k-th largest logit are all kept", kind: "edge", inputs: tiedInputs },
    batchCase("an empty history: nothing to penalise", "edge", 9, { B: 2, V: 16, temperature: 1, topK: 0, topP: 0.9, repetitionPenalty: 2, seen: 0 }),
    batchCase("identical rows draw independently", "edge", 10, { B: 8, V: 6, temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1, spread: 0.5, identicalRows: true }),
  ];
  return cases.map((c) => ({ ...c, name: `${c.name}${suffix}` }));
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "filteredProbabilities",
      file: "sampling.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.logits, x.opts),
      cases: [...sharedCases(""), ...fixtureCases(LESSON, "filteredProbabilities")],
    },
    {
      name: "sampleNextToken",
      file: "sampling.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.logits, x.opts),
      cases: [...sharedCases(": the drawn token"), ...fixtureCases(LESSON, "sampleNextToken")],
    },
  ],
};

export default grader;
