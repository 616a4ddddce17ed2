/**
 * Lesson 25 — Rewards, log-probs and KL. Cases for solutions/lesson-25/{logprobs,masks,reward,kl}.ts:
 * the lesson's worked batch, edge cases, seeded random batches and texts, and PyTorch fixtures
 * computed from MiniMind's own lines (grader/lesson-25/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { normal2d, prefixMask, raggedLengths } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT, LONG_REDUCTION } from "../engine/types.js";
import type { CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-25";
const EOS = 2;
const PAD = 0;

/** Long responses sum over 512+ positions: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("R=512") ? LONG_REDUCTION : undefined);

// ----- the worked batch of lessons/25-reward-logprob-kl.md: B=2, a 2-token prompt, R=3, V=4 -----

/** Logits for the last nKeep + 1 = 4 positions of each row (what logits_to_keep = 4 returns). */
const WORKED_LOGITS = [
  [[0.5, 1.0, -1.0, 2.0], [0.0, 0.5, 1.5, 0.5], [2.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]],
  [[0.0, 1.0, 0.0, 1.0], [0.0, 2.0, -1.0, 0.0], [-1.0, 0.5, 0.5, 1.5], [0.0, 0.0, 3.0, 0.0]],
];
/** Prompt [1, 3] | response [3, EOS, PAD]; prompt [1, 1] | response [3, 1, 3] (no EOS: out of budget). */
const WORKED_IDS = [[1, 3, 3, EOS, PAD], [1, 1, 3, 1, 3]];
const WORKED_MASK = [[1, 1, 0], [1, 1, 1]];
const WORKED_LOG_RATIO = [[0.1, -0.3, 0.3], [0.05, 0.25, -0.2]];
const WORKED_RESPONSES = [
  "<think>\nA greeting: answer briefly.\n</think>\nHello! How can I help you today?",
  "The answer is 42. The answer is 42!",
];

// ----- perTokenLogps -----

/** Seeded logits [B, L, V] (scaled normals) and token ids [B, T]. */
function randomLogitsBatch(seed: number, B: number, T: number, L: number, V: number, nKeep: number, scale = 1): Inputs {
  const rng = new Rng(seed);
  const logits = tf.tensor3d(rng.normals(B * L * V, 0, scale), [B, L, V]);
  const inputIds = tf.tensor2d(Array.from({ length: B * T }, () => rng.int(0, V - 1)), [B, T], "int32");
  return { logits, inputIds, nKeep };
}

const logpCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, T: number, L: number, V: number, nKeep: number, scale = 1): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} T=${T} L=${L} V=${V} nKeep=${nKeep})`,
  kind,
  inputs: () => randomLogitsBatch(seed, B, T, L, V, nKeep, scale),
});

/** d/dlogits of Σ w·perTokenLogps, with fixed random weights w: the policy gradient must reach the logits. */
const logpGradient = gradientCall((fn, x) => fn(x.logits, x.inputIds, x.nKeep), "logits", { upstream: "weights" });

// ----- ppoResponseMask -----

/** Rows with ragged right padding and 0-3 EOS tokens each, some of them in the padding. */
function randomMaskBatch(seed: number, B: number, R: number): Inputs {
  const rng = new Rng(seed);
  const lengths = raggedLengths(rng, B, R, 0);
  const ids: number[] = [];
  lengths.forEach((len) => {
    const row = Array.from({ length: R }, (_, j) => (j < len ? rng.int(3, 40) : PAD));
    const eosCount = rng.int(0, 3);
    for (let k = 0; k < eosCount; k++) row[rng.int(0, R - 1)] = EOS;
    ids.push(...row);
  });
  return { completionIds: tf.tensor2d(ids, [B, R], "int32"), padMask: prefixMask(lengths, R), eosTokenId: EOS };
}

const maskRows = (ids: number[][], pad: number[][], name: string, kind: CaseDef["kind"]): CaseDef => ({
  name,
  kind,
  inputs: () => ({ completionIds: tf.tensor2d(ids, undefined, "int32"), padMask: tf.tensor2d(pad), eosTokenId: EOS }),
});

// ----- texts -----

const WORDS = ["the", "answer", "is", "42", "yes", "no", "hello", "world", "我们", "学习", "模型", "你好", "😀", "café", "Token", "x_1"];
const MARKS = [".", ",", "!", "?", "。", "，", "！", ":"];
const SPACES = [" ", " ", " ", "\n", "\t", "\u3000"];

/** A seeded text of `count` words and marks, drawn from a small vocabulary so that n-grams repeat. */
function randomText(rng: Rng, count: number, vocab = WORDS.length): string {
  let text = "";
  for (let i = 0; i < count; i++) {
    text += rng.next() < 0.2 ? MARKS[rng.int(0, MARKS.length - 1)] : WORDS[rng.int(0, vocab - 1)];
    if (rng.next() < 0.8) text += SPACES[rng.int(0, SPACES.length - 1)];
  }
  return text;
}

/** Random responses: with or without a think block (sometimes two </think>), lengths across the 20/300/800 bounds. */
function randomResponse(rng: Rng): string {
  const answer = randomText(rng, rng.int(0, 120), rng.int(3, WORDS.length));
  const kind = rng.int(0, 3);
  if (kind === 0) return answer;
  const thinking = randomText(rng, rng.int(0, 70));
  const extra = kind === 3 ? `</think>${randomText(rng, 5)}` : "";
  return `<think>\n${thinking}\n</think>\n${answer}${extra}`;
}

/** grader/lesson-25/parity.py's rep_penalty is Python's own re and str (no PyTorch): labelled by what computed it. */
const pythonFixtures = (exercise: string): CaseDef[] =>
  fixtureCases(LESSON, exercise).map((c) => ({ ...c, name: c.name.replace(/^PyTorch fixture: /, "Python fixture: ") }));

const penaltyCase = (name: string, kind: CaseDef["kind"], text: string, n?: number, cap?: number): CaseDef => ({
  name: `${name}${n === undefined ? "" : ` (n=${n}, cap=${cap})`}`,
  kind,
  inputs: () => ({ text, n, cap }),
});

const randomPenaltyCase = (seed: number, n: number, cap: number): CaseDef => ({
  name: `12 seeded texts of 0-80 tokens, mixed scripts (seed ${seed}, n=${n}, cap=${cap})`,
  kind: "random",
  inputs: () => {
    const rng = new Rng(seed);
    return { texts: Array.from({ length: 12 }, () => randomText(rng, rng.int(0, 80), rng.int(2, WORDS.length))), n, cap };
  },
  call: (fn, x) => (x.texts as string[]).map((t) => fn(t, x.n, x.cap)),
});

const rewardCase = (name: string, kind: CaseDef["kind"], response: string): CaseDef => ({ name, kind, inputs: () => ({ response }) });

// ----- approxKl / clipFraction -----

/** A seeded log-ratio batch with ragged masks; minLen 0 makes all-masked rows. */
function randomRatioBatch(seed: number, B: number, R: number, std: number, minLen = 1) {
  const rng = new Rng(seed);
  const mask = prefixMask(raggedLengths(rng, B, R, minLen), R);
  return { logRatio: normal2d(rng, B, R, 0, std), mask };
}

const klCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, R: number, std: number, minLen = 1, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} R=${R}, log-ratio std ${std})`,
  kind,
  inputs: () => randomRatioBatch(seed, B, R, std, minLen),
  tolerance,
});

const clipCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, R: number, std: number, eps: number, minLen = 1, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} R=${R}, log-ratio std ${std}, ε=${eps})`,
  kind,
  inputs: () => {
    const { logRatio, mask } = randomRatioBatch(seed, B, R, std, minLen);
    const ratio = tf.exp(logRatio);
    logRatio.dispose();
    return { ratio, mask, eps };
  },
  tolerance,
});

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "perTokenLogps",
      file: "logprobs.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => (x.temperature === undefined ? fn(x.logits, x.inputIds, x.nKeep) : fn(x.logits, x.inputIds, x.nKeep, x.temperature)),
      cases: [
        {
          name: "worked example: logits for the last 4 positions, nKeep=3",
          kind: "worked",
          inputs: () => ({ logits: tf.tensor3d(WORKED_LOGITS), inputIds: tf.tensor2d(WORKED_IDS, undefined, "int32"), nKeep: 3 }),
        },
        logpCase("nKeep=0 gives an empty [B, 0]", "edge", 61, 2, 5, 5, 6, 0),
        logpCase("a negative nKeep also gives an empty [B, 0]", "edge", 62, 3, 4, 4, 5, -2),
        logpCase("one kept token, L = nKeep + 1", "edge", 63, 1, 3, 2, 7, 1),
        logpCase("every token but the first, L = T", "edge", 64, 2, 6, 6, 5, 5),
        logpCase("a full forward pass, L = T", "random", 65, 3, 10, 10, 12, 4),
        logpCase("large logits (×12): log-softmax must subtract the max", "random", 66, 2, 8, 5, 9, 4, 12),
        logpCase("long responses, R=512", "random", 67, 2, 520, 513, 8, 512),
        {
          name: "logit spreads beyond 100 (200 against 0, 120 against −150): log-probs of −200 and below, no −Inf or NaN",
          kind: "edge",
          inputs: () => ({
            logits: tf.tensor3d([
              [[200, 0, -10, 5], [-150, 120, 0, 0], [1, 2, 3, 4]],
              [[0, 0, 0, 300], [90, -90, 0, 0], [0, 0, 0, 0]],
            ]),
            inputIds: tf.tensor2d([[3, 1, 0], [2, 3, 1]], undefined, "int32"),
            nKeep: 2,
          }),
        },
        {
          name: "worked logits at temperature 0.5: logits / T before the log-softmax",
          kind: "edge",
          inputs: () => ({ logits: tf.tensor3d(WORKED_LOGITS), inputIds: tf.tensor2d(WORKED_IDS, undefined, "int32"), nKeep: 3, temperature: 0.5 }),
        },
        {
          name: "temperature 1 given explicitly equals the default",
          kind: "edge",
          inputs: () => ({ ...randomLogitsBatch(70, 2, 6, 6, 5, 4), temperature: 1 }),
        },
        { ...logpCase("a hotter sampler, T = 1.7", "random", 73, 3, 9, 9, 11, 5, 3), inputs: () => ({ ...randomLogitsBatch(73, 3, 9, 9, 11, 5, 3), temperature: 1.7 }) },
        {
          name: "the gradient at temperature 0.6 carries the 1/T factor (seed 74, B=2 T=6 L=6 V=5 nKeep=3)",
          kind: "random",
          inputs: () => ({ ...randomLogitsBatch(74, 2, 6, 6, 5, 3), temperature: 0.6, weights: normal2d(new Rng(75), 2, 3) }),
          call: gradientCall((fn, x) => fn(x.logits, x.inputIds, x.nKeep, x.temperature), "logits", { upstream: "weights" }),
          checks: "the gradient of Σ w·logp with respect to the logits at T = 0.6",
        },
        {
          name: "the gradient reaches the logits (seed 68, B=2 T=7 L=7 V=6 nKeep=3)",
          kind: "random",
          inputs: () => {
            const x = randomLogitsBatch(68, 2, 7, 7, 6, 3);
            return { ...x, weights: normal2d(new Rng(69), 2, 3) };
          },
          call: logpGradient,
          checks: "the gradient of Σ w·logp with respect to the logits (tf.gatherND has none in TensorFlow.js)",
        },
        ...fixtureCases(LESSON, "perTokenLogps"),
      ],
    },
    {
      name: "ppoResponseMask",
      file: "masks.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.completionIds, x.padMask, x.eosTokenId),
      cases: [
        maskRows(WORKED_IDS.map((r) => r.slice(2)), [[1, 1, 1], [1, 1, 1]], "worked example: one EOS row, one row without EOS", "worked"),
        maskRows([[PAD, PAD, PAD], [5, EOS, 6]], [[0, 0, 0], [1, 1, 1]], "a row of padding only keeps nothing (its length clamps to 1)", "edge"),
        maskRows([[5, 6, EOS, 7], [5, EOS, EOS, 7]], [[1, 0, 1, 1], [1, 1, 1, 1]], "a hole in the pad mask; two EOS in a row", "edge"),
        maskRows([[5, 6, 7, EOS], [5, EOS, 6, 7]], [[1, 1, 1, 0], [1, 0, 1, 1]], "an EOS id at a pad position is ignored (after the end, or in a hole)", "edge"),
        maskRows([[EOS], [7]], [[1], [1]], "a single position", "edge"),
        maskRows(
          [[5, PAD, 6, EOS, PAD], [PAD, 7, EOS, 8, 9]],
          [[1, 0, 1, 1, 0], [0, 1, 1, 1, 1]],
          "holes before the EOS: a real EOS at position 3 with only 3 real positions still ends the row",
          "edge",
        ),
        { name: "ragged padding, 0-3 EOS per row (seed 71, B=6 R=10)", kind: "random", inputs: () => randomMaskBatch(71, 6, 10) },
        { name: "long responses (seed 72, B=4 R=512)", kind: "random", inputs: () => randomMaskBatch(72, 4, 512) },
        ...fixtureCases(LESSON, "ppoResponseMask"),
      ],
    },
    {
      name: "repetitionPenalty",
      file: "reward.ts",
      tolerance: EXACT,
      // n and cap are optional: the worked case leaves both out, so their defaults are graded too.
      call: (fn, x) => (x.n === undefined ? fn(x.text) : x.cap === undefined ? fn(x.text, x.n) : fn(x.text, x.n, x.cap)),
      cases: [
        penaltyCase("worked example: the second response, default n and cap", "worked", WORKED_RESPONSES[1]),
        penaltyCase("an empty text", "edge", ""),
        penaltyCase("fewer tokens than n", "edge", "Hi there", 3, 0.5),
        penaltyCase("one word repeated reaches the cap", "edge", "no no no no no no no", 3, 0.5),
        penaltyCase("case and punctuation: 'The' is 'the', ',' is a token", "edge", "The end,the END, the end.", 2, 0.5),
        penaltyCase("Chinese runs are single tokens", "edge", "我们学习模型，我们学习模型，我们学习。", 2, 0.5),
        penaltyCase("Python's spaces (\\x1c, NEL) and a BOM token", "edge", "ok\x1cok\x85ok \ufeffok \ufeff ok café ok", 2, 0.5),
        penaltyCase("Python's spaces between Chinese words, and a BOM", "edge", "你好\x1c你好\x85你好 \ufeff", 1, 0.5),
        penaltyCase("unigrams with cap 1", "edge", "a b a b a c", 1, 1),
        penaltyCase("Unicode lower case of the whole text: 'İ' becomes 'i' and a combining dot (its own token), 'The' is 'the', 'ß' stays", "edge", "İstanbul İzmir the The straße strasse", 1, 0.5),
        penaltyCase("lower case, not upper: 'straße' and 'strasse' stay two words", "edge", "straße strasse", 1, 0.5),
        randomPenaltyCase(81, 3, 0.5),
        randomPenaltyCase(82, 2, 0.3),
        randomPenaltyCase(83, 4, 1),
        ...pythonFixtures("repetitionPenalty"),
      ],
    },
    {
      name: "ruleReward",
      file: "reward.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.response),
      cases: [
        rewardCase("worked example: the first response (think block)", "worked", WORKED_RESPONSES[0]),
        rewardCase("worked example: the second response (repeated answer)", "worked", WORKED_RESPONSES[1]),
        rewardCase("an empty response", "edge", ""),
        rewardCase("exactly 20 characters after strip", "edge", `\n ${"k".repeat(20)} \n`),
        rewardCase("19 characters inside spaces", "edge", `  ${"k".repeat(19)}  `),
        rewardCase("exactly 800 characters", "edge", "l".repeat(800)),
        rewardCase("10 emoji and 5 letters are 15 characters to Python", "edge", "🎉".repeat(10) + "abcde"),
        rewardCase("19 characters and a NEL (U+0085), which Python strips", "edge", "m".repeat(19) + "\x85"),
        rewardCase("a BOM (U+FEFF), which Python keeps, and 19 characters", "edge", "\ufeff" + "m".repeat(19)),
        rewardCase("a thinking block of exactly 300 characters, answer repeated", "edge", `<think>${"n".repeat(293)}</think> ok ok ok ok`),
        rewardCase("15 characters after <think>: 22 with the tag, inside the thinking window", "edge", `<think>${"t".repeat(15)}</think>\nA short answer of enough length.`),
        rewardCase("296 characters after <think>: 303 with the tag, too long", "edge", `<think>${"t".repeat(296)}</think>\nA short answer of enough length.`),
        rewardCase("a thinking of 19 characters once stripped (21 with its newlines)", "edge", `<think>${"s".repeat(12)}\n\n</think>\nA short answer of enough length.`),
        rewardCase("only a </think> (empty thinking), then a repetitive answer", "edge", "</think>hello hello hello hello hello"),
        rewardCase("two </think>: the first one splits", "edge", "<think>short</think>a second part that is long enough</think>no no no no"),
        {
          name: "16 seeded responses with and without think blocks (seed 91)",
          kind: "random",
          inputs: () => {
            const rng = new Rng(91);
            return { responses: Array.from({ length: 16 }, () => randomResponse(rng)) };
          },
          call: (fn, x) => (x.responses as string[]).map((r) => fn(r)),
        },
        ...fixtureCases(LESSON, "ruleReward"),
      ],
    },
    {
      name: "approxKl",
      file: "kl.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.logRatio, x.mask),
      cases: [
        { name: "worked example", kind: "worked", inputs: () => ({ logRatio: tf.tensor2d(WORKED_LOG_RATIO), mask: tf.tensor2d(WORKED_MASK) }) },
        { name: "every token masked: 0, not NaN", kind: "edge", inputs: () => ({ logRatio: tf.tensor2d([[0.4, -0.2]]), mask: tf.zeros([1, 2]) }) },
        { name: "a policy that has not moved: 0", kind: "edge", inputs: () => ({ logRatio: tf.zeros([2, 3]), mask: tf.tensor2d(WORKED_MASK) }) },
        { name: "log-ratios that cancel in sum", kind: "edge", inputs: () => ({ logRatio: tf.tensor2d([[0.7, -0.7, 0.9]]), mask: tf.tensor2d([[1, 1, 0]]) }) },
        klCase("ragged masks", "random", 101, 4, 9, 0.3),
        klCase("all-masked rows among others", "edge", 102, 5, 6, 0.5, 0),
        klCase("a large step: above the 0.25 early stop", "random", 103, 3, 8, 1.2),
        klCase("long responses, R=512", "random", 104, 4, 512, 0.3, 1, LONG_REDUCTION),
        ...fixtureCases(LESSON, "approxKl", fixtureTolerance),
      ],
    },
    {
      name: "clipFraction",
      file: "kl.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.ratio, x.mask, x.eps),
      cases: [
        {
          name: "worked example (ε=0.2)",
          kind: "worked",
          inputs: () => ({ ratio: tf.tidy(() => tf.exp(tf.tensor2d(WORKED_LOG_RATIO))), mask: tf.tensor2d(WORKED_MASK), eps: 0.2 }),
        },
        { name: "every token masked: 0, not NaN", kind: "edge", inputs: () => ({ ratio: tf.tensor2d([[1.5, 0.5]]), mask: tf.zeros([1, 2]), eps: 0.2 }) },
        {
          name: "decimal ε in float32: a ratio stored as 1.2 is 1.20000005, whose distance from 1 exceeds ε = 0.2",
          kind: "edge",
          inputs: () => ({ ratio: tf.tensor2d([[1.2, 0.8, 1.1], [0.9, 1.3, 1.05]]), mask: tf.ones([2, 3]), eps: 0.2 }),
        },
        {
          name: "ratios exactly on 1 ± ε are not clipped (ε=0.25)",
          kind: "edge",
          inputs: () => ({ ratio: tf.tensor2d([[1.25, 0.75, 1.5], [0.5, 1.0, 1.2]]), mask: tf.ones([2, 3]), eps: 0.25 }),
        },
        clipCase("ragged masks", "random", 111, 4, 9, 0.3, 0.2),
        clipCase("all-masked rows among others", "edge", 112, 5, 6, 0.5, 0.1, 0),
        clipCase("a small ε", "random", 113, 3, 8, 0.2, 0.05),
        clipCase("long responses, R=512", "random", 114, 4, 512, 0.3, 0.2, 1, LONG_REDUCTION),
        ...fixtureCases(LESSON, "clipFraction", fixtureTolerance),
      ],
    },
  ],
};

export default grader;
