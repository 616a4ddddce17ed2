/**
 * Lesson 8 — Config and parameter count. Cases for exercises/lesson-8/params.ts: MiniMind's own
 * configurations (dense 64M and MoE 198M-A64M), edge configurations (untied lm_head, multi-head
 * and multi-query attention, every expert active, an explicit head size, a dense config without
 * an experts key), seeded random
 * configurations, and fixtures counted by PyTorch from the modules' shapes
 * (grader/lesson-8/parity.py).
 *
 * Counts are compared exactly, as int32 scalars (every count here is below 2^31).
 */
import * as tf from "../../lib/tf.js";
import { miniMindConfig } from "../../lib/model/config.js";
import type { MiniMindConfig } from "../../lib/model/config.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { EXACT } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-8";

/** Each numeric field of the result as an int32 scalar, so counts compare exactly and print as integers. */
function asCountTensors(result: unknown): unknown {
  if (result === null || typeof result !== "object") return result;
  return Object.fromEntries(
    Object.entries(result).map(([key, value]) => [key, typeof value === "number" && Number.isInteger(value) ? tf.scalar(value, "int32") : value]),
  );
}

const configCase = (name: string, kind: CaseDef["kind"], overrides: Partial<MiniMindConfig>): CaseDef => ({
  name,
  kind,
  inputs: () => ({ config: miniMindConfig(overrides) }),
});

/** A seeded, valid configuration: heads divide H, kv heads divide heads, sizes stay small. */
function randomConfig(seed: number, useMoe: boolean): Partial<MiniMindConfig> {
  const rng = new Rng(seed);
  const numAttentionHeads = [2, 4, 8][rng.int(0, 2)];
  const hiddenSize = numAttentionHeads * 8 * rng.int(1, 8);
  const kvChoices = [1, 2, 4, 8].filter((n) => numAttentionHeads % n === 0);
  const numExperts = rng.int(2, 8);
  return {
    hiddenSize,
    numHiddenLayers: rng.int(1, 12),
    vocabSize: rng.int(100, 8000),
    numAttentionHeads,
    numKeyValueHeads: kvChoices[rng.int(0, kvChoices.length - 1)],
    tieWordEmbeddings: rng.next() < 0.7,
    useMoe,
    numExperts,
    numExpertsPerTok: rng.int(1, numExperts),
    ...(useMoe && rng.next() < 0.5 ? { moeIntermediateSize: 32 * rng.int(1, 16) } : {}),
  };
}

const randomCase = (seed: number, useMoe: boolean): CaseDef => {
  const c = randomConfig(seed, useMoe);
  const moe = useMoe ? `, E=${c.numExperts} k=${c.numExpertsPerTok}` : "";
  return configCase(
    `random ${useMoe ? "MoE" : "dense"} config (seed ${seed}: H=${c.hiddenSize} L=${c.numHiddenLayers} V=${c.vocabSize} heads ${c.numAttentionHeads}/${c.numKeyValueHeads}${c.tieWordEmbeddings ? "" : ", untied"}${moe})`,
    "random",
    c,
  );
};

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "countParams",
      file: "params.ts",
      tolerance: EXACT,
      call: (fn: AnyFn, x: Inputs) => asCountTensors(fn(x.config)),
      cases: [
        configCase("worked example: MiniMind's default config (64M)", "worked", {}),
        configCase("MiniMind's MoE config: 4 experts, top-1 (198M-A64M)", "edge", { useMoe: true }),
        configCase("untied lm_head: the output matrix counts separately", "edge", { hiddenSize: 256, numHiddenLayers: 2, tieWordEmbeddings: false }),
        configCase("multi-head attention: as many kv heads as query heads", "edge", { hiddenSize: 256, numHiddenLayers: 2, numKeyValueHeads: 8 }),
        configCase("multi-query attention: one kv head", "edge", { hiddenSize: 256, numHiddenLayers: 2, numKeyValueHeads: 1 }),
        configCase("every expert active: k = E, active = total", "edge", { hiddenSize: 128, numHiddenLayers: 2, useMoe: true, numExperts: 3, numExpertsPerTok: 3 }),
        configCase("an explicit headDim: 6 heads of 64 over H=256", "edge", { hiddenSize: 256, numAttentionHeads: 6, numKeyValueHeads: 2, headDim: 64 }),
        configCase("a small dense config: no experts key at all (not experts: 0)", "edge", { hiddenSize: 64, numHiddenLayers: 1, vocabSize: 100, numAttentionHeads: 4, numKeyValueHeads: 2 }),
        randomCase(1, false),
        randomCase(2, false),
        randomCase(3, true),
        randomCase(4, true),
        randomCase(5, true),
        ...fixtureCases(LESSON, "countParams"),
      ],
    },
  ],
};

export default grader;
