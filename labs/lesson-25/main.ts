/**
 * Lab 25: one rollout batch carried through rewards → masks → log-probs → approx-KL and clip
 * fraction, then PPO updates on it until MiniMind's early stop fires. The "model" is a table of
 * logits (one row per position), so every number can be traced by hand. Runs your functions of
 * lessons 25 and 23 where they pass grading, the reference elsewhere (the lab prints which). Writes an SVG of approx KL, clip fraction and the reference KL
 * over the updates.
 *
 * Options: --lr <x> (Adam learning rate, default 0.05), --steps <n> (at most, default 30).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Logprobs from "../../exercises/lesson-25/logprobs.js";
import type * as Masks from "../../exercises/lesson-25/masks.js";
import type * as Reward from "../../exercises/lesson-25/reward.js";
import type * as Kl from "../../exercises/lesson-25/kl.js";
import type * as Ppo from "../../exercises/lesson-23/ppo.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { perTokenLogps: "lesson-25", ppoResponseMask: "lesson-25", repetitionPenalty: "lesson-25", ruleReward: "lesson-25", approxKl: "lesson-25", clipFraction: "lesson-25", maskedGae: "lesson-23", ppoPolicyLoss: "lesson-23", referenceKlPenalty: "lesson-23" };
type Functions = { perTokenLogps: typeof Logprobs.perTokenLogps; ppoResponseMask: typeof Masks.ppoResponseMask; repetitionPenalty: typeof Reward.repetitionPenalty; ruleReward: typeof Reward.ruleReward; approxKl: typeof Kl.approxKl; clipFraction: typeof Kl.clipFraction; maskedGae: typeof Ppo.maskedGae; ppoPolicyLoss: typeof Ppo.ppoPolicyLoss; referenceKlPenalty: typeof Ppo.referenceKlPenalty };
let { perTokenLogps, ppoResponseMask, repetitionPenalty, ruleReward, approxKl, clipFraction, maskedGae, ppoPolicyLoss, referenceKlPenalty } = {} as Functions;

/** MiniMind's special tokens: <|endoftext|> pads, <|im_end|> ends a turn (model/tokenizer_config.json). */
const SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
const PAD = 0;
const EOS = 2;
const CLIP_EPS = 0.2;
const KL_COEF = 0.02;
const EARLY_STOP_KL = 0.25;
const GAMMA = 1;
const LAM = 0.95;

const PROMPT = "<|im_start|> user hi";
/** Four sampled responses, as tokens. Row 1 never emitted EOS: it ran to the token budget R. */
const RESPONSES = [
  "<think> greet back briefly . </think> hello ! how can i help you today ? <|im_end|>",
  "the answer is 42 . the answer is 42 . the answer is 42 . the answer is 42 .",
  "yes <|im_end|>",
  "<think> ok </think> </think> fine fine fine fine fine <|im_end|>",
];

/** Vocabulary: the special tokens, then every other token in order of appearance. */
function buildVocabulary(): string[] {
  const vocab = [...SPECIALS];
  for (const text of [PROMPT, ...RESPONSES]) for (const tok of text.split(" ")) if (!vocab.includes(tok)) vocab.push(tok);
  return vocab;
}

/** skip_special_tokens decoding: drop the specials, join words, glue punctuation to the word before it. */
function decode(tokens: string[]): string {
  return tokens
    .filter((t) => !SPECIALS.includes(t))
    .join(" ")
    .replace(/ ([.,!?])/g, "$1");
}

/** The part the repetition penalty sees: after the first </think>, stripped (this lab's text is ASCII, so trim() is strip()). */
function answerPart(text: string): string {
  const tag = "</think>";
  const end = text.indexOf(tag);
  return end < 0 ? text : text.slice(end + tag.length).trim();
}

const fmt = (xs: ArrayLike<number>, digits = 2) => Array.from(xs, (x) => x.toFixed(digits).padStart(digits + 4)).join("");

interface Rollout {
  vocab: string[];
  inputIds: tf.Tensor2D;
  completionIds: tf.Tensor2D;
  responsesText: string[];
  R: number;
}

function tokenise(): Rollout {
  const vocab = buildVocabulary();
  const prompt = PROMPT.split(" ").map((t) => vocab.indexOf(t));
  const rows = RESPONSES.map((text) => text.split(" ").map((t) => vocab.indexOf(t)));
  const R = Math.max(...rows.map((r) => r.length));
  const completion = rows.map((r) => [...r, ...Array(R - r.length).fill(PAD)]);
  return {
    vocab,
    inputIds: tf.tensor2d(completion.map((r) => [...prompt, ...r]), undefined, "int32"),
    completionIds: tf.tensor2d(completion, undefined, "int32"),
    responsesText: RESPONSES.map((text) => decode(text.split(" "))),
    R,
  };
}

function parseOption(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!(value > 0)) throw new Error(`${name} needs a positive number`);
  return value;
}

const lab: Lab = async (ctx) => {
  console.log("Lab 25: one rollout batch, rewards to loss, then PPO updates until the early stop\n");
  ({ perTokenLogps, ppoResponseMask, repetitionPenalty, ruleReward, approxKl, clipFraction, maskedGae, ppoPolicyLoss, referenceKlPenalty } = await labFunctions<Functions>(ctx, HOMES));
  const lr = parseOption(ctx.args, "--lr", 0.05);
  const maxSteps = parseOption(ctx.args, "--steps", 30);
  const { vocab, inputIds, completionIds, responsesText, R } = tokenise();
  const [B, T] = inputIds.shape;
  const V = vocab.length;
  console.log(`Rollout: B=${B} responses to "${PROMPT}", R=${R} generated positions, vocabulary V=${V} (pad=${PAD}, EOS=${EOS})\n`);

  console.log("1. Rewards from the decoded text (train_ppo.py:51-75, reward model left out)");
  const rewards = responsesText.map((text) => ruleReward(text));
  responsesText.forEach((text, b) => {
    console.log(`  row ${b}: ${JSON.stringify(text)}`);
    console.log(`         repetition penalty of the answer ${repetitionPenalty(answerPart(text)).toFixed(4)}   rule reward ${rewards[b].toFixed(4)}`);
  });

  console.log("\n2. Response masks (train_ppo.py:122-126): the torch engine's pad mask is all ones, so EOS does the masking");
  const padMask = tf.ones([B, R]) as tf.Tensor2D;
  const mask = ppoResponseMask(completionIds, padMask, EOS);
  const lengths = tf.tidy(() => Array.from(tf.sum(mask, 1).dataSync()));
  (mask.arraySync() as number[][]).forEach((row, b) => console.log(`  row ${b}: length ${String(lengths[b]).padStart(2)}  ${row.join("")}`));

  console.log("\n3. Advantages: the reward at the last kept token, then GAE with no critic (V = 0, γ=1, λ=0.95)");
  const rewardBuffer = tf.buffer([B, R]);
  lengths.forEach((len, b) => rewardBuffer.set(rewards[b], b, len - 1));
  const tokenRewards = rewardBuffer.toTensor() as tf.Tensor2D;
  const values = tf.zeros([B, R]) as tf.Tensor2D;
  const { advantages, returns } = maskedGae(tokenRewards, values, mask, GAMMA, LAM);
  (advantages.arraySync() as number[][]).forEach((row, b) => console.log(`  row ${b}: ${fmt(row.slice(0, 8))} …`));
  const mean = rewards.reduce((s, r) => s + r, 0) / B;
  const std = Math.sqrt(rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / B);
  console.log(`  for comparison, GRPO's group advantage (one group of ${B}, lesson 24): ${fmt(rewards.map((r) => (r - mean) / (std + 1e-4)), 4)}`);

  console.log("\n4. Log-probs (rollout_engine.py:24-36): old = the rollout policy, ref = a frozen reference");
  const rng = new Rng(25);
  const initial = tf.tensor3d(rng.normals(B * T * V, 0, 1), [B, T, V]);
  const policy = tf.variable(initial);
  const refLogits = tf.tidy(() => tf.add(initial, tf.tensor3d(rng.normals(B * T * V, 0, 0.3), [B, T, V]))) as tf.Tensor3D;
  const oldLogps = perTokenLogps(initial, inputIds, R);
  const refLogps = perTokenLogps(refLogits, inputIds, R);
  console.log(`  old row 0: ${fmt(oldLogps.arraySync()[0].slice(0, 8))} …`);
  console.log(`  ref row 0: ${fmt(refLogps.arraySync()[0].slice(0, 8))} …`);

  console.log(`\n5. PPO updates on this one batch (Adam, lr ${lr}); approx KL is checked before each update`);
  console.log("  step  approxKL  clipfrac  refKL(k3)  policy loss  decision");
  const optimizer = tf.train.adam(lr);
  const history: Array<{ step: number; kl: number; clip: number; ref: number }> = [];
  let stoppedAt: number | undefined;
  for (let step = 0; step < maxSteps; step++) {
    const [kl, clip, ref, loss] = tf.tidy(() => {
      const newLogps = perTokenLogps(policy as tf.Tensor3D, inputIds, R);
      const logRatio = tf.sub(newLogps, oldLogps) as tf.Tensor2D;
      return [
        approxKl(logRatio, mask),
        clipFraction(tf.exp(logRatio) as tf.Tensor2D, mask, CLIP_EPS),
        referenceKlPenalty(newLogps, refLogps, mask),
        ppoPolicyLoss(newLogps, oldLogps, advantages, mask, CLIP_EPS),
      ].map((t) => t.dataSync()[0]);
    });
    history.push({ step, kl, clip, ref });
    const stop = kl > EARLY_STOP_KL;
    const decision = stop ? `stop: ${kl.toFixed(4)} > early_stop_kl ${EARLY_STOP_KL}` : "update";
    console.log(`  ${String(step).padStart(4)}${[kl, clip, ref, loss].map((x, i) => x.toFixed(4).padStart([10, 10, 11, 13][i])).join("")}  ${decision}`);
    if (stop) {
      stoppedAt = step;
      break;
    }
    optimizer.minimize(() => {
      const newLogps = perTokenLogps(policy as tf.Tensor3D, inputIds, R);
      return tf.add(ppoPolicyLoss(newLogps, oldLogps, advantages, mask, CLIP_EPS), tf.mul(KL_COEF, referenceKlPenalty(newLogps, refLogps, mask))) as tf.Scalar;
    });
  }
  if (stoppedAt === undefined) console.log(`  approx KL stayed under ${EARLY_STOP_KL} for ${maxSteps} updates: no early stop (try --lr 0.2)`);
  console.log(
    [
      "  Once the clip fraction reaches 1, every token's ratio is past the clip on the side its advantage pushes: the surrogate",
      "  is flat (the policy loss stops changing) and gives no gradient. Adam's momentum and the ref-KL term still move the",
      "  logits, and only the approx-KL check stops the drift.",
    ].join("\n"),
  );

  const file = join(ctx.outDir, "approx-kl-early-stop.svg");
  writeFileSync(
    file,
    lineChart({
      title: `PPO updates on one batch (Adam lr ${lr})`,
      xLabel: "update step",
      yLabel: "value",
      series: [
        { name: "approx KL", points: history.map((h) => [h.step, h.kl]) },
        { name: "clip fraction", points: history.map((h) => [h.step, h.clip]) },
        { name: "ref KL (k3)", points: history.map((h) => [h.step, h.ref]) },
        { name: "early_stop_kl", points: [[0, EARLY_STOP_KL], [history.length - 1, EARLY_STOP_KL]], dashed: true, color: "#999" },
      ],
      guides: stoppedAt === undefined ? [] : [{ x: stoppedAt, label: "early stop" }],
    }),
  );
  console.log(`\nWrote ${ctx.show(file)}`);
  tf.dispose([inputIds, completionIds, padMask, mask, tokenRewards, values, advantages, returns, initial, policy, refLogits, oldLogps, refLogps]);
  optimizer.dispose();
};

export default lab;
