/**
 * Lab 7 — a tiny pretraining run, in the order of trainer/train_pretrain.py:
 * arguments → config → model → data → epoch loop (lr schedule, step, log) → checkpoint → a sample.
 *
 * The model is MiniMindTS with your lesson functions wherever they pass their grader (the
 * reference elsewhere); the corpus is datasets/tiny-corpus.txt (3 KB, one sentence a line, read
 * with the course tokenizer, datasets/tokenizer/), one sentence in eight held out. A file this small is memorised: the
 * lab says so and prints the held-out loss next to the training loss. 250 steps take about a
 * minute on the wasm backend:
 *   COURSE_BACKEND=wasm npm run lab lesson-7 [-- --steps 250] [--use-reference lesson-11]
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { AdamW, trainStep } from "../../lib/model/train.js";
import { saveModel } from "../../lib/model/checkpoint.js";
import { courseTokenizer } from "../../lib/tokenizer.js";
import { runningPieces } from "../../lib/model/pieces.js";
import { labPieces, type Lab } from "../lab.js";
import { asBatch, batches, loadCorpus, progressBar } from "./data.js";
import { PRETRAIN_FUNCTION_HOMES, pretrainArgs, pretrainModelConfig, type PretrainArgs, type PretrainFunctions } from "./config.js";

/** The lab's settings (config.ts), with `--steps 20`-style overrides from the command line. */
function parseArgs(argv: string[], backend: string): PretrainArgs {
  return pretrainArgs(backend, (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : fallback;
  });
}

const lab: Lab = async (ctx) => {
  const args = parseArgs(ctx.args, ctx.backend);
  const cpuNote = ctx.backend === "cpu" ? ` (only ${args.steps} step${args.steps === 1 ? "" : "s"}: the cpu backend is slow; COURSE_BACKEND=wasm runs 250 in about a minute)` : "";
  console.log(`Lab 7: pretraining a tiny MiniMindTS on the ${ctx.backend} backend${cpuNote}\n`);

  const config = pretrainModelConfig(args, courseTokenizer().vocabSize);
  // Only the pieces this model runs: a dense model never calls moeFeedForward (an MoE one calls it instead of feedForward).
  // MiniMind's cosine schedule and gradient clipping are lesson 14's exercises, the samples lesson 6's: the learner's once they pass.
  const { pieces, extra } = await labPieces<PretrainFunctions>(ctx, runningPieces(config, { lmLoss: true }), PRETRAIN_FUNCTION_HOMES);
  const model = MiniMindTS.init(config, 42, { pieces });
  const params = model.trainableVariables().reduce((n, v) => n + v.size, 0);
  console.log(`Model: hidden ${config.hiddenSize}, ${config.numHiddenLayers} layers, ${config.numAttentionHeads} heads over ${config.numKeyValueHeads} kv heads, vocab ${config.vocabSize} (the course tokenizer): ${(params / 1e6).toFixed(3)}M parameters`);

  const corpus = loadCorpus(extra.pretrainSample, args.maxSeqLen);
  const samples = corpus.train;
  console.log(
    `Data: datasets/tiny-corpus.txt (${(corpus.bytes / 1024).toFixed(1)} KB): ${samples.length} sentences to train on, ${corpus.heldOut.length} held out ` +
      `(every 8th,\nnever trained on), padded to ${args.maxSeqLen} tokens (labels −100 on padding).`,
  );
  console.log("A file this small gets memorised, not learned from: over a full run (250 steps) the training loss");
  console.log("falls far below the held-out loss, which turns back up, and the samples repeat training sentences");
  console.log("nearly word for word. The held-out loss is the honest number. (A real corpus and tokenizer come later.)\n");
  const heldOut = asBatch(corpus.heldOut);
  const heldOutLoss = () => tf.tidy(() => model.loss(heldOut.inputIds, heldOut.labels).logitsLoss.dataSync()[0]);
  const heldOutLosses: Array<[number, number]> = [[0, heldOutLoss()]];

  const optimizer = new AdamW(model.trainableVariables());
  const losses: Array<[number, number]> = [];
  const started = performance.now();
  let step = 0;
  for (const batch of batches(samples, args.batchSize, args.steps, 42)) {
    step++;
    const lr = extra.cosineLr(step, args.steps, args.learningRate);
    const result = trainStep(model, optimizer, batch.inputIds, batch.labels, lr, extra.clipGradNorm, args.gradClip);
    tf.dispose([batch.inputIds, batch.labels]);
    losses.push([step, result.loss]);
    const perSecond = step / ((performance.now() - started) / 1000);
    process.stdout.write(`\r${progressBar(step, args.steps)} step ${step}/${args.steps}  loss ${result.loss.toFixed(4)}  lr ${lr.toExponential(2)}  ${perSecond.toFixed(2)} steps/s `);
    if (step % args.logInterval === 0 || step === args.steps) {
      heldOutLosses.push([step, heldOutLoss()]);
      process.stdout.write(` held-out ${heldOutLosses[heldOutLosses.length - 1][1].toFixed(4)}\n`);
    }
  }
  tf.dispose([heldOut.inputIds, heldOut.labels]);
  const seconds = (performance.now() - started) / 1000;
  const firstHeld = heldOutLosses[0][1];
  const lastHeld = heldOutLosses[heldOutLosses.length - 1][1];
  console.log(`\nTrained ${args.steps} steps in ${seconds.toFixed(1)} s (ln ${config.vocabSize} = ${Math.log(config.vocabSize).toFixed(3)} is a uniform guess):`);
  const best = heldOutLosses.reduce((b, p) => (p[1] < b[1] ? p : b));
  console.log(`  ${"training loss (its batch)".padEnd(30)} ${losses[0][1].toFixed(3)} → ${losses[losses.length - 1][1].toFixed(3)}`);
  console.log(`  ${`held-out loss (${corpus.heldOut.length} sentences)`.padEnd(30)} ${firstHeld.toFixed(3)} → ${lastHeld.toFixed(3)} (lowest ${best[1].toFixed(3)} at step ${best[0]})`);
  if (lastHeld > losses[losses.length - 1][1] + 0.25) {
    console.log("  The gap is memorisation: what the model learns of the training sentences stops carrying over");
    console.log(`  to new ones${best[0] < args.steps ? ` after step ${best[0]}, where the held-out loss turns back up` : ""}.`);
  }

  const chart = join(ctx.outDir, "loss.svg");
  writeFileSync(chart, lineChart({ title: "Pretraining loss (tiny corpus, course tokenizer)", xLabel: "step", yLabel: "cross-entropy", series: [{ name: "training loss", points: losses }, { name: "held-out loss", points: heldOutLosses, dashed: true, markers: true }] }));
  const checkpoint = join(ctx.outDir, `pretrain_${config.hiddenSize}.safetensors`);
  saveModel(model, checkpoint);
  console.log(`Wrote ${ctx.show(chart)} and ${ctx.show(checkpoint)} (MiniMind's parameter names; open it with safetensors in Python)\n`);

  console.log("Samples (compare them with the corpus: they are mostly its own lines, recalled):");
  const prompts = ["The cat", "The king", "In winter", "The river"];
  const pick = model.sampler({ seed: 7, temperature: 0.7, topK: 20, topP: 0.9 });
  for (const prompt of prompts) {
    const tok = courseTokenizer();
    const ids = tf.tensor2d([[tok.bosId, ...tok.encode(prompt)]], undefined, "int32");
    const out = model.generate(ids, { maxNewTokens: args.maxSeqLen - ids.shape[1], eosTokenId: tok.eosId, pickToken: pick });
    const generated = Array.from(out.dataSync()).slice(ids.shape[1]);
    console.log(`  ${JSON.stringify(prompt)} → ${JSON.stringify(prompt + tok.decode(generated, { skipSpecialTokens: true }))}`);
    tf.dispose([ids, out]);
  }
  model.dispose();
};

export default lab;
