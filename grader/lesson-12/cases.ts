/**
 * Lesson 12 — RoPE and the KV cache. Cases for ropeFrequencies and applyRope
 * (exercises/lesson-12/rope.ts) and generate (exercises/lesson-12/generate.ts): the lesson's
 * worked examples, edge cases (left-out defaults, YaRN exactly at the original context and on a
 * single frequency, an odd head size, EOS inside the prompt, eosTokenId null, a custom
 * pickToken), a gradient, seeded random cases, and PyTorch fixtures of MiniMind's
 * precompute_freqs_cis, apply_rotary_pos_emb and generate (grader/lesson-12/parity.py).
 *
 * `generate` drives a small seeded MiniMindTS built from the reference solutions, so only the
 * generation loop is under test.
 */
import * as tf from "../../lib/tf.js";
import { miniMindConfig, type MiniMindConfig, type RopeScaling } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { REFERENCE_PIECES } from "../../lib/model/pieces.js";
import { initialParameters } from "../../lib/model/params.js";
import type { CausalLm } from "../../lib/model/types.js";
import { deps } from "../engine/deps.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-12";

function yarn(overrides: Partial<RopeScaling>): RopeScaling {
  return { betaFast: 32, betaSlow: 1, factor: 16, originalMaxPositionEmbeddings: 2048, attentionFactor: 1, type: "yarn", ...overrides };
}

/**
 * A long table graded on its last `rows` rows only (positions end − rows … end − 1): where the
 * point is how the frequencies are set, those rows show it, and the report and a release's frozen
 * expectations stay small.
 */
const lastRows = (rows: number) => (fn: AnyFn, x: Inputs) => {
  const table = fn(x.dim, x.end, x.base, x.ropeScaling) as { cos: tf.Tensor2D; sin: tf.Tensor2D };
  const tail = (t: tf.Tensor2D) => tf.slice(t, [t.shape[0] - rows, 0], [rows, t.shape[1]]);
  const out = { cos: tail(table.cos), sin: tail(table.sin) };
  tf.dispose([table.cos, table.sin]);
  return out;
};

const tableCase = (name: string, kind: CaseDef["kind"], dim: number, end: number, base: number, ropeScaling: RopeScaling | null = null): CaseDef => ({
  name: `${name} (dim=${dim}, end=${end}, base=${base}${ropeScaling ? `, YaRN factor ${ropeScaling.factor} over ${ropeScaling.originalMaxPositionEmbeddings}` : ""})`,
  kind,
  inputs: () => ({ dim, end, base, ropeScaling }),
});

/** q, k of the given sizes and the table rows of positions start … start + S − 1. */
function rotationInputs(seed: number, B: number, S: number, Hq: number, Hkv: number, D: number, start = 0, base = 1e4): Inputs {
  const rng = new Rng(seed);
  const table = deps.ropeFrequencies(D, start + S, base);
  const rows = (t: tf.Tensor2D) => tf.slice(t, [start, 0], [S, D]) as tf.Tensor2D;
  const inputs = {
    q: tf.tensor4d(rng.normals(B * S * Hq * D), [B, S, Hq, D]),
    k: tf.tensor4d(rng.normals(B * S * Hkv * D), [B, S, Hkv, D]),
    cos: rows(table.cos),
    sin: rows(table.sin),
  };
  tf.dispose([table.cos, table.sin]);
  return inputs;
}

const rotationCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, S: number, Hq: number, Hkv: number, D: number, start = 0): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} S=${S} Hq=${Hq} Hkv=${Hkv} D=${D}, positions ${start}…${start + S - 1})`,
  kind,
  inputs: () => rotationInputs(seed, B, S, Hq, Hkv, D, start),
});

/** The model every generate case drives: 2 layers, 4 query heads over 2 kv heads, 32 tokens. */
const GENERATOR_CONFIG: Partial<MiniMindConfig> = {
  vocabSize: 32,
  hiddenSize: 16,
  numHiddenLayers: 2,
  numAttentionHeads: 4,
  numKeyValueHeads: 2,
  intermediateSize: 32,
  maxPositionEmbeddings: 64,
};

/** Weights of std 0.6: at MiniMind's 0.02 a random model only repeats its last token. */
const GENERATOR_SEED = 7;
const GENERATOR_STD = 0.6;

interface GenerateSpec {
  prompts: number[][];
  maxNewTokens: number;
  eosTokenId: number | null;
  /** Left padding per row (prompts must then have equal lengths, pad id 0 in front). */
  leftPad?: number[];
  useCache?: boolean;
}

function generateInputs(spec: GenerateSpec): Inputs {
  const config = miniMindConfig(GENERATOR_CONFIG);
  const S = spec.prompts[0].length;
  const mask = spec.leftPad ? tf.tensor2d(spec.leftPad.flatMap((pad) => Array.from({ length: S }, (_, j) => (j < pad ? 0 : 1))), [spec.prompts.length, S]) : null;
  return {
    config: { ...GENERATOR_CONFIG },
    weights: initialParameters(config, GENERATOR_SEED, GENERATOR_STD),
    inputIds: tf.tensor2d(spec.prompts, undefined, "int32"),
    attentionMask: mask,
    maxNewTokens: spec.maxNewTokens,
    eosTokenId: spec.eosTokenId,
    useCache: spec.useCache ?? true,
  };
}

/**
 * Builds the case's model, lets `run` drive it, and frees it again. Its pieces are the references;
 * this lesson's own rope table is handed in here, because while lesson 12 is graded the resolver
 * withholds lesson 12's reference from everything else in the process.
 */
function withModel<T>(x: Inputs, run: (model: MiniMindTS) => T): T {
  const pieces = { ...REFERENCE_PIECES, ropeFrequencies: deps.ropeFrequencies };
  const model = new MiniMindTS(miniMindConfig(x.config as Partial<MiniMindConfig>), x.weights as Record<string, tf.Tensor>, { pieces });
  try {
    return run(model);
  } finally {
    model.dispose();
  }
}

/** `generate`'s ids, run by `generate` on the case's model, and how many positions it fed model.forward in all. */
function countingPositions(x: Inputs, generate: (counting: CausalLm) => unknown): { ids: unknown; positionsFed: number } {
  return withModel(x, (model) => {
    let positionsFed = 0;
    const counting: CausalLm = {
      forward: (ids, opts) => {
        positionsFed += ids.shape[1];
        return model.forward(ids, opts);
      },
    };
    return { ids: generate(counting), positionsFed };
  });
}

const callGenerate = (fn: AnyFn, x: Inputs, model: CausalLm) =>
  fn(model, x.inputIds, { maxNewTokens: x.maxNewTokens, eosTokenId: x.eosTokenId, attentionMask: x.attentionMask, useCache: x.useCache });

const generateCase = (name: string, kind: CaseDef["kind"], spec: GenerateSpec): CaseDef => ({
  name,
  kind,
  inputs: () => generateInputs(spec),
});

/** Prompts of the random cases: `B` rows of `S` ids in 3…31 after a 1 (MiniMind's <|im_start|>). */
function randomPrompts(seed: number, B: number, S: number): number[][] {
  const rng = new Rng(seed);
  return Array.from({ length: B }, () => [1, ...Array.from({ length: S - 1 }, () => rng.int(3, 31))]);
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "ropeFrequencies",
      file: "rope.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.dim, x.end, x.base, x.ropeScaling),
      cases: [
        tableCase("worked example: two frequencies, three positions", "worked", 4, 3, 100),
        tableCase("position 0 only: cos 1, sin 0", "edge", 8, 1, 1e6),
        tableCase("a single frequency (dim 2)", "edge", 2, 5, 1e4),
        tableCase("YaRN given, but the table is within the original context: only the attention factor", "edge", 8, 16, 1e4, yarn({ originalMaxPositionEmbeddings: 32, attentionFactor: 0.8 })),
        tableCase("MiniMind's default base, head_dim 64", "random", 64, 512, 1e6),
        tableCase("YaRN: 4x past the original context", "random", 16, 96, 1e4, yarn({ originalMaxPositionEmbeddings: 24, factor: 4 })),
        tableCase("YaRN with MiniMind's defaults (factor 16 over 2048), past the original context", "random", 8, 2080, 1e6, yarn({})),
        { name: "base and ropeScaling left out: base 1e6, no scaling (dim=8, end=6)", kind: "edge", call: (fn, x) => fn(x.dim, x.end), inputs: () => ({ dim: 8, end: 6 }) },
        {
          ...tableCase("YaRN exactly at the original context (end = 2048): not rescaled, only the attention factor", "edge", 8, 2048, 1e6, yarn({ attentionFactor: 0.9 })),
          call: lastRows(8),
          checks: "the last 8 rows (positions 2040-2047) of both tables",
        },
        {
          ...tableCase("YaRN on a single frequency, where the ramp's high = low (MiniMind guards the division)", "edge", 2, 4096, 1e6, yarn({})),
          call: lastRows(8),
          checks: "the last 8 rows (positions 4088-4095) of both tables",
        },
        tableCase("an odd head size: ⌊5/2⌋ = 2 frequencies, a table 4 wide", "edge", 5, 4, 1e4),
        ...fixtureCases(LESSON, "ropeFrequencies"),
      ],
    },
    {
      name: "applyRope",
      file: "rope.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.q, x.k, x.cos, x.sin),
      cases: [
        {
          name: "worked example: one head, D=4, positions 0 and 1",
          kind: "worked",
          inputs: () => {
            const table = deps.ropeFrequencies(4, 2, 100);
            return { q: tf.tensor4d([[[[1, 0, 0, 1]], [[1, 0, 0, 1]]]]), k: tf.tensor4d([[[[0, 1, 1, 0]], [[2, 0, 0, 0]]]]), ...table };
          },
        },
        rotationCase("position 0 is not rotated", "edge", 21, 2, 1, 2, 2, 4),
        rotationCase("a single pair (D=2)", "edge", 22, 1, 4, 1, 1, 2),
        rotationCase("more query heads than key heads", "random", 23, 2, 7, 4, 2, 8),
        rotationCase("positions far from 0 (a decode step at 300)", "random", 24, 3, 1, 4, 2, 16, 300),
        rotationCase("a long sequence, S=512", "random", 25, 1, 512, 2, 1, 8),
        {
          ...rotationCase("the gradient w.r.t. q", "random", 26, 2, 3, 2, 1, 8, 4),
          call: (fn, x) =>
            tf.tidy(() =>
              tf.grad((q: tf.Tensor) => {
                const { q: rotated } = fn(q, x.k, x.cos, x.sin) as { q: tf.Tensor };
                return tf.sum(tf.mul(rotated, tf.reshape(tf.range(1, rotated.size + 1), rotated.shape))) as tf.Scalar;
              })(x.q as tf.Tensor),
            ),
          checks: "the gradient of Σ(applyRope(q, k).q ⊙ g) w.r.t. q, g = 1, 2, 3, …: the transposed rotation",
        },
        ...fixtureCases(LESSON, "applyRope"),
      ],
    },
    {
      name: "generate",
      file: "generate.ts",
      tolerance: EXACT,
      call: (fn, x) => withModel(x, (model) => callGenerate(fn, x, model)),
      cases: [
        generateCase("worked example: one prompt of 5 tokens, 6 greedy tokens", "worked", { prompts: [[1, 5, 9, 3, 7]], maxNewTokens: 6, eosTokenId: null }),
        generateCase("maxNewTokens = 0 returns the prompt", "edge", { prompts: [[1, 5, 9]], maxNewTokens: 0, eosTokenId: 2 }),
        generateCase("every row reaches EOS (11): stop early", "edge", { prompts: [[1, 5, 9, 3, 7], [1, 4, 4, 8, 6]], maxNewTokens: 12, eosTokenId: 11 }),
        generateCase("finished rows are filled with EOS while another row goes on", "edge", { prompts: [[1, 5, 9, 3, 7], [1, 4, 4, 8, 6], [1, 20, 21, 22, 23]], maxNewTokens: 12, eosTokenId: 11 }),
        {
          ...generateCase("with the cache, the first step feeds the prompt and every later step one token", "edge", { prompts: [[1, 5, 9, 3, 7], [1, 4, 4, 8, 6]], maxNewTokens: 8, eosTokenId: null }),
          checks: "how many positions `generate` passes to model.forward in total (the prompt once, then one a step)",
          call: (fn, x) => countingPositions(x, (counting) => callGenerate(fn, x, counting)),
        },
        generateCase("a one-token prompt", "edge", { prompts: [[1]], maxNewTokens: 5, eosTokenId: 2 }),
        generateCase("left-padded prompts with an attention mask", "random", { prompts: [[1, 5, 9, 3, 7, 12], [0, 0, 1, 4, 4, 8], [0, 0, 0, 1, 20, 21]], maxNewTokens: 10, eosTokenId: null, leftPad: [0, 2, 3] }),
        generateCase("without the cache (same tokens, every prefix recomputed)", "random", { prompts: randomPrompts(31, 2, 4), maxNewTokens: 6, eosTokenId: null, useCache: false }),
        generateCase("seeded prompts, B=3 S=6", "random", { prompts: randomPrompts(32, 3, 6), maxNewTokens: 12, eosTokenId: 2 }),
        generateCase("eosTokenId null never stops early, not even at token 2 (prompt [1, 3, 9] reaches 2 at step 3)", "edge", { prompts: [[1, 3, 9]], maxNewTokens: 8, eosTokenId: null }),
        {
          ...generateCase("only maxNewTokens given: EOS 2, the cache on, greedy, no mask (prompt [1, 3, 9] stops at 2)", "edge", { prompts: [[1, 3, 9]], maxNewTokens: 8, eosTokenId: null }),
          checks: "the tokens, and how many positions `generate` passes to model.forward in total, with every option left out",
          call: (fn, x) => countingPositions(x, (counting) => fn(counting, x.inputIds, { maxNewTokens: x.maxNewTokens })),
        },
        {
          ...generateCase("a pickToken that always picks 5 is used for every token", "edge", { prompts: [[1, 5, 9], [1, 4, 4]], maxNewTokens: 4, eosTokenId: 2 }),
          call: (fn, x) =>
            withModel(x, (model) =>
              fn(model, x.inputIds, { maxNewTokens: x.maxNewTokens, eosTokenId: x.eosTokenId, useCache: true, pickToken: (last: tf.Tensor2D) => tf.fill([last.shape[0]], 5, "int32") }),
            ),
        },
        generateCase("a multi-turn prompt with EOS inside it (… 2, 1, 7): the prompt's EOS finishes nothing", "edge", { prompts: [[1, 5, 9, 2, 1, 7]], maxNewTokens: 6, eosTokenId: 2 }),
        ...fixtureCases(LESSON, "generate"),
      ],
    },
  ],
};

export default grader;
