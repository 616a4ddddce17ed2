/**
 * Lesson 3 — Inference end to end: choosing the next token. Cases for
 * exercises/lesson-3/sampling.ts: the lesson's worked example, edge cases (filters off, top-k = 1,
 * a tiny top-p, ties at the k-th logit, nothing seen yet, identical rows, logit spreads beyond
 * 100, top-p exactly on its boundary, left-out options), seeded random batches
 * (MiniMind's defaults on its 6400-token vocabulary among them), and PyTorch fixtures of
 * MiniMind's filtering lines (grader/lesson-3/parity.py).
 *
 * The filtered distribution is graded as well as the sampled token, so a wrong order of
 * operations fails even when a draw happens to land on the same token.
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
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

/** One sequence's V seeded normal logits (std `spread`), as [V] logits. */
function oneRow(seed: number, V: number, spread: number): tf.Tensor1D {
  return tf.tensor1d(new Rng(seed).normals(V, 0, spread));
}

/**
 * Spreads far beyond 100: row 0 has scores of ±150 (exp overflows float32 above ≈ 88), row 1 sits
 * 300 below it (exp(s − the batch's max) underflows to 0). Only a per-row, max-shifted softmax survives.
 */
function extremeSpreadInputs(): Inputs {
  const rng = new Rng(12);
  const V = 12;
  const row0 = rng.normals(V, 0, 60);
  row0[3] = 150;
  const row1 = rng.normals(V, -300, 1);
  return { logits: tf.tensor2d([...row0, ...row1], [2, V]), opts: { temperature: 1, topK: 0, topP: 0.95, repetitionPenalty: 1, seed: 12 } };
}

/**
 * Cumulative probabilities that land exactly on p: four equal finite scores (1/4 each, exact in
 * float32) and p = 0.75. The third token reaches 0.75 without passing it, so all four stay; the
 * −∞ scores are tokens ruled out before sampling (probability exactly 0). In the last row two
 * tokens of 1/2 pass p only with the second, which crosses it and stays.
 */
function topPBoundaryInputs(): Inputs {
  const ninf = -Infinity;
  return {
    logits: tf.tensor2d([
      [0, 0, 0, 0, ninf, ninf, ninf, ninf],
      [ninf, 0, ninf, 0, 0, ninf, 0, ninf],
      [0, ninf, ninf, 0, ninf, ninf, ninf, ninf],
    ]),
    opts: { temperature: 1, topK: 0, topP: 0.75, repetitionPenalty: 1, seed: 13 },
  };
}

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
    { name: "logit spreads beyond 100: a row with scores of ±150, another 300 below it (the softmax must subtract each row's own max)", kind: "edge", inputs: extremeSpreadInputs },
    { name: "top-p exactly on the boundary: four quarters reach p = 0.75 and all stay; two halves pass it and both stay", kind: "edge", inputs: topPBoundaryInputs },
    {
      name: "a penalty but no previousTokens: nothing is penalised",
      kind: "edge",
      inputs: () => ({ logits: tf.tensor2d(new Rng(14).normals(3 * 10, 0, 2), [3, 10]), opts: { temperature: 0.9, topK: 0, topP: 1, repetitionPenalty: 1.5, seed: 14 } }),
    },
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
      cases: [
        ...sharedCases(""),
        {
          name: "no options at all: MiniMind's defaults (T 0.85, k 50, p 0.85) on a peaked row, V=64 (seed 15)",
          kind: "edge",
          call: (fn, x) => fn(x.logits),
          inputs: () => ({ logits: oneRow(15, 64, 3) }),
        },
        {
          name: "an empty options object: the defaults on a flat row, V=64, where top-p keeps more than 50 tokens and top-k decides (seed 16)",
          kind: "edge",
          inputs: () => ({ logits: oneRow(16, 64, 0.1), opts: {} }),
        },
        {
          name: "B=80 rows of MiniMind's 6,400 logits (512,000 values: no argument spreading), T=0.85, top-k and top-p off (seed 17)",
          kind: "random",
          // Graded on the first 16 probabilities of every row: the point is the size of the input, and a
          // smaller result keeps the report, and a release's frozen expectations, small.
          call: (fn, x) => {
            const p = fn(x.logits, x.opts) as tf.Tensor;
            const head = tf.slice(p, [0, 0], [80, 16]);
            p.dispose();
            return head;
          },
          checks: "the first 16 probabilities of each of the 80 rows",
          inputs: () => ({ logits: tf.tensor2d(new Rng(17).normals(80 * 6400, 0, 2), [80, 6400]), opts: { temperature: 0.85, topK: 0, topP: 1 } }),
        },
        ...fixtureCases(LESSON, "filteredProbabilities"),
      ],
    },
    {
      name: "sampleNextToken",
      file: "sampling.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.logits, x.opts),
      cases: [
        ...sharedCases(": the drawn token"),
        {
          name: "only a seed: MiniMind's defaults (T 0.85, k 50, p 0.85), V=64 (seed 15): the drawn token",
          kind: "edge",
          inputs: () => ({ logits: tf.tensor2d(new Rng(15).normals(4 * 64, 0, 1), [4, 64]), opts: { seed: 15 } }),
        },
        ...fixtureCases(LESSON, "sampleNextToken"),
      ],
    },
  ],
};

export default grader;
