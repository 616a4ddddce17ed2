/**
 * Distillation (trainer/train_distillation.py): a student of the --config size learns SFT's data
 * from the labels and from a frozen teacher (the --from weights, whose own config is read from the
 * file), through lesson 20's distillationLoss with MiniMind's α = 0.5 and T = 1.5.
 */
import * as tf from "../../tf.js";
import { loadModel } from "../../model/checkpoint.js";
import { MiniMindTS } from "../../model/model.js";
import type { DistillFunctions } from "../../model/distill.js";
import { TrainError } from "../errors.js";
import type { PostTrainingStage } from "../stage-hooks.js";
import sft from "./sft.js";

/** MiniMind's defaults (trainer/train_distillation.py:172-173). */
export const DISTILL = { alpha: 0.5, temperature: 1.5 };

/**
 * The teacher of each --from file, loaded when the student is built (outside any tape: a model
 * built inside the loop's forward tidy would lose its RoPE tables when the tidy ends).
 */
const teachers = new Map<string, MiniMindTS>();

function loadTeacher(path: string | undefined, vocabSize: number): MiniMindTS {
  if (!path) throw new TrainError("distill needs a teacher: --from <weights of a larger model, e.g. runs/sft-small/full_sft_256.safetensors>", 2);
  let teacher = teachers.get(path);
  if (!teacher) {
    teacher = loadModel(path);
    if (teacher.config.vocabSize < vocabSize) throw new TrainError(`the teacher ${path} knows ${teacher.config.vocabSize} tokens, the student ${vocabSize}: it must know at least the student's`, 2);
    teachers.set(path, teacher);
  }
  return teacher;
}

const stage: PostTrainingStage = {
  ...sft,
  name: "distill",
  summary: "a student learns SFT data from the labels and a frozen teacher's distributions (α·CE + (1 − α)·T²·KL)",
  weightName: "full_dist",
  functions: { ...sft.functions, distillationLoss: "lesson-20" },
  // The student starts from a seed; --from names the teacher (MiniMind loads both from full_sft).
  initialWeights: () => undefined,
  buildModel(ctx, config, weights, opts) {
    const teacher = loadTeacher(ctx.fromPath, config.vocabSize);
    const model = weights ? new MiniMindTS(config, weights, opts) : MiniMindTS.init(config, ctx.settings.seed, opts);
    const size = (m: MiniMindTS) => m.trainableVariables().reduce((n, v) => n + v.size, 0);
    return {
      model,
      trainable: model.trainableVariables(),
      named: model.params,
      describe: () => [`Distillation: teacher ${ctx.fromPath} (${size(teacher).toLocaleString("en")} parameters, frozen), α = ${DISTILL.alpha}, T = ${DISTILL.temperature}`],
      dispose: () => model.dispose(),
    };
  },
  loss(ctx, model, inputIds, labels) {
    const teacher = teachers.get(ctx.fromPath ?? "");
    if (!teacher) throw new TrainError("distill needs a teacher: --from <weights of a larger model, e.g. runs/sft-small/full_sft_256.safetensors>", 2);
    const fns = ctx.fns as unknown as DistillFunctions;
    // Inside the loop's tape, whose forward tidy frees these; no gradient reaches the teacher's
    // variables because only the student's are differentiated (and lesson 20 detaches the target).
    const teacherLogits = teacher.forward(inputIds).logits;
    const { logits, auxLoss } = model.forward(inputIds, { training: true });
    const out = fns.distillationLoss(logits, teacherLogits, labels, DISTILL.alpha, DISTILL.temperature);
    return tf.add(out.loss, tf.mul(auxLoss, DISTILL.alpha)) as tf.Scalar; // MoE aux joins the CE term (line 79)
  },
};

export default stage;
