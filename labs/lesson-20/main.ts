/**
 * Lab 20 — distillation as trainer/train_distillation.py does it: a frozen teacher, a smaller
 * student, and lesson 20's distillationLoss (α·CE + (1 − α)·T²·KL). The same student (same seed,
 * same batches, same schedule) is trained twice: on the labels alone (α = 1) and distilled
 * (MiniMind's α = 0.5, T = 1.5); the held-out loss of each is the comparison.
 *
 * The teacher is a base model pretrained on the course corpus (100 steps by default, cached; or
 * `--base <file>`). About 10-15 minutes on the wasm backend (two students of 300 steps):
 *   COURSE_BACKEND=wasm npm run lab lesson-20 [-- --steps 300] [--base-steps 100] [--alpha 0.5] [--temperature 1.5]
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { distillStep, type DistillFunctions } from "../../lib/model/distill.js";
import { AdamW } from "../../lib/model/train.js";
import type { PieceName } from "../../lib/model/pieces.js";
import { labPieces, type Lab } from "../lab.js";
import { argValue, BASE_DIR, batches, corpusSentences, heldOutLoss, labConfig, pretrainedBase, samplesOf, scheduleLr, seconds } from "../post-training.js";

const lab: Lab = async (ctx) => {
  const steps = Number(argValue(ctx.args, "steps", ctx.backend === "cpu" ? "3" : "300"));
  const alpha = Number(argValue(ctx.args, "alpha", "0.5"));
  const temperature = Number(argValue(ctx.args, "temperature", "1.5"));
  // A teacher pretrained for 100 steps, near its lowest held-out loss; the 300-step base of lab 19 has
  // memorised the corpus, and distilling from it makes the student worse (`--base-steps 300` shows it).
  const baseSteps = Number(argValue(ctx.args, "base-steps", ctx.backend === "cpu" ? "3" : "100"));
  console.log(`Lab 20: distillation, ${ctx.backend} backend${ctx.backend === "cpu" ? " (a few steps only: COURSE_BACKEND=wasm runs the real thing)" : ""}\n`);

  const running: PieceName[] = ["rmsNorm", "attention", "ropeFrequencies", "feedForward", "causalLmLoss"];
  const { pieces, extra: fns } = await labPieces<DistillFunctions>(ctx, running, { distillationLoss: "lesson-20", clipGradNorm: "lesson-14" });
  const teacherConfig = labConfig();
  const teacher = pretrainedBase({ outDir: BASE_DIR, config: teacherConfig, steps: baseSteps, path: argValue(ctx.args, "base"), modelOptions: { pieces }, log: console.log }).model;
  const studentConfig = labConfig({ hiddenSize: 64, numAttentionHeads: 4, numKeyValueHeads: 2 });
  const size = (m: MiniMindTS) => m.trainableVariables().reduce((n, v) => n + v.size, 0);

  const { train, heldOut } = corpusSentences();
  const trainSamples = samplesOf(train, 64);
  const heldSamples = samplesOf(heldOut, 64);
  const teacherHeld = heldOutLoss(teacher, heldSamples);
  console.log(`Teacher: hidden ${teacherConfig.hiddenSize}, ${teacherConfig.numHiddenLayers} layers, ${size(teacher).toLocaleString("en")} parameters, frozen; held-out loss ${teacherHeld.toFixed(3)}`);

  const runs: Array<{ name: string; a: number; curve: Array<[number, number]>; final: number; ms: number }> = [];
  for (const [name, a] of [["alone (α = 1: labels only)", 1], [`distilled (α = ${alpha}, T = ${temperature})`, alpha]] as const) {
    const student = MiniMindTS.init(studentConfig, 7, { pieces });
    if (runs.length === 0) console.log(`Student: hidden ${studentConfig.hiddenSize}, ${studentConfig.numHiddenLayers} layers, ${size(student).toLocaleString("en")} parameters (${(size(teacher) / size(student)).toFixed(1)}× smaller), the same seed for both runs\n`);
    console.log(`Student ${name}:`);
    const optimizer = new AdamW(student.trainableVariables());
    const curve: Array<[number, number]> = [[0, heldOutLoss(student, heldSamples)]];
    const started = performance.now();
    let step = 0;
    for (const b of batches(trainSamples, 16, steps, 42)) {
      const r = distillStep(student, teacher, optimizer, b.ids, b.labels, scheduleLr(++step, steps, 3e-3), fns, { alpha: a, temperature });
      tf.dispose([b.ids, b.labels]);
      if (step % 25 === 0 || step === steps) {
        curve.push([step, heldOutLoss(student, heldSamples)]);
        console.log(`  step ${step}/${steps}  ce ${r.extras.ce.toFixed(3)}  distill ${r.extras.distill.toFixed(3)}  held-out ${curve[curve.length - 1][1].toFixed(3)}  (${seconds(performance.now() - started)})`);
      }
    }
    runs.push({ name, a, curve, final: curve[curve.length - 1][1], ms: performance.now() - started });
    student.dispose();
  }
  teacher.dispose();

  console.log(`\nHeld-out loss after ${steps} steps (${heldOut.length} sentences never trained on; teacher ${teacherHeld.toFixed(3)}):`);
  for (const r of runs) {
    const best = r.curve.reduce((b, p) => (p[1] < b[1] ? p : b));
    console.log(`  ${r.name.padEnd(34)} ${r.final.toFixed(3)}  (lowest ${best[1].toFixed(3)} at step ${best[0]}; ${seconds(r.ms)})`);
  }
  const chart = join(ctx.outDir, "distillation.svg");
  writeFileSync(chart, lineChart({ title: "Held-out loss of the student", xLabel: "step", yLabel: "cross-entropy", series: runs.map((r, i) => ({ name: r.name, points: r.curve, dashed: i === 0 })) }));
  console.log(`Wrote ${ctx.show(chart)}.`);
};

export default lab;
