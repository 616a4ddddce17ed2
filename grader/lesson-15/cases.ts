/**
 * Lesson 15 — Checkpoint and resume. Cases for exercises/lesson-15/resume.ts: the batches a resumed
 * epoch still trains on (compared as the batch sizes and the indices in order), and the step
 * rescale when the number of processes changes. Fixtures run MiniMind's SkipBatchSampler and its
 * rescale line, restated in grader/lesson-15/parity.py.
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { EXACT } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-15";

/** The batches as data that compares exactly and says where they differ: sizes, then every index in order. */
function asBatches(result: unknown): unknown {
  if (!Array.isArray(result) || !result.every((b) => Array.isArray(b))) return result;
  const batches = result as number[][];
  return {
    batchSizes: tf.tensor1d(batches.map((b) => b.length), "int32"),
    indices: tf.tensor1d(batches.flat(), "int32"),
  };
}

/** A seeded permutation of 0 … n − 1, as an epoch's shuffled order. */
function permutation(rng: Rng, n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

const skipCase = (name: string, kind: CaseDef["kind"], order: number[], batchSize: number, skip: number): CaseDef => ({
  name,
  kind,
  inputs: () => ({ order, batchSize, skip }),
});

function randomSkip(seed: number): CaseDef {
  const rng = new Rng(seed);
  const n = rng.int(1, 600);
  const batchSize = rng.int(1, 40);
  const full = Math.floor(n / batchSize);
  const skip = rng.int(0, full + 1);
  return skipCase(`random order of ${n}, batch ${batchSize}, skip ${skip} (seed ${seed})`, "random", permutation(rng, n), batchSize, skip);
}

/** rescaleResumeStep over each [step, saved, current] of `inputs.resumes`, as int32. */
const rescaleCall = (fn: AnyFn, x: Inputs) => {
  const out = (x.resumes as number[][]).map(([step, saved, current]) => fn(step, saved, current) as number);
  return out.every((v) => Number.isInteger(v)) ? tf.tensor1d(out, "int32") : tf.tensor1d(out, "float32");
};
const rescaleCase = (name: string, kind: CaseDef["kind"], resumes: number[][]): CaseDef => ({ name, kind, inputs: () => ({ resumes }) });

function randomResumes(seed: number): CaseDef {
  const rng = new Rng(seed);
  const resumes = Array.from({ length: 40 }, () => [rng.int(0, 100000), rng.int(1, 8), rng.int(1, 8)]);
  return rescaleCase(`40 random resumes: step, saved and current world size (seed ${seed})`, "random", resumes);
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "skipBatches",
      file: "resume.ts",
      tolerance: EXACT,
      call: (fn: AnyFn, x: Inputs) => asBatches(fn(x.order, x.batchSize, x.skip)),
      outputOrder: ["batchSizes", "indices"],
      cases: [
        skipCase("worked example: 10 samples, batch 4, skip 1", "worked", [7, 2, 9, 0, 4, 8, 1, 6, 3, 5], 4, 1),
        skipCase("skip 0: every batch, the short one last", "edge", [7, 2, 9, 0, 4, 8, 1, 6, 3, 5], 4, 0),
        skipCase("skip every full batch: only the short last one is left", "edge", [7, 2, 9, 0, 4, 8, 1, 6, 3, 5], 4, 2),
        skipCase("skip more than there are full batches: nothing, not even the short one", "edge", [7, 2, 9, 0, 4, 8, 1, 6, 3, 5], 4, 3),
        skipCase("an exact multiple: no short batch", "edge", [5, 4, 3, 2, 1, 0], 3, 1),
        skipCase("fewer samples than one batch, skip 0", "edge", [2, 0, 1], 8, 0),
        skipCase("batch size 1, skip 4", "edge", [9, 8, 7, 6, 5, 4], 1, 4),
        skipCase("an empty epoch", "edge", [], 4, 0),
        randomSkip(1),
        randomSkip(2),
        randomSkip(3),
        skipCase("512 samples, batch 16, skip 20 (seed 4)", "random", permutation(new Rng(4), 512), 16, 20),
        ...fixtureCases(LESSON, "skipBatches"),
      ],
    },
    {
      name: "rescaleResumeStep",
      file: "resume.ts",
      tolerance: EXACT,
      call: rescaleCall,
      cases: [
        rescaleCase("worked example: step 10 saved on 4 processes, resumed on 4, 2, 1 and 3", "worked", [
          [10, 4, 4],
          [10, 4, 2],
          [10, 4, 1],
          [10, 4, 3],
        ]),
        rescaleCase("one process to more: fewer, larger global steps, rounded down", "edge", [
          [10, 1, 3],
          [7, 1, 2],
          [1, 1, 8],
        ]),
        rescaleCase("step 0 stays 0", "edge", [
          [0, 2, 1],
          [0, 1, 4],
        ]),
        rescaleCase("same world size: unchanged", "edge", [
          [12345, 2, 2],
          [3, 1, 1],
        ]),
        rescaleCase("exact results whose ratio is not exact in floating point (7 → 5 processes: 45 steps are 63)", "edge", [
          [45, 7, 5],
          [90, 7, 5],
          [360, 7, 5],
        ]),
        randomResumes(1),
        randomResumes(2),
        ...fixtureCases(LESSON, "rescaleResumeStep"),
      ],
    },
  ],
};

export default grader;
