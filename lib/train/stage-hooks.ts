/**
 * What a post-training stage needs from the loop beyond lib/train/stage.ts's `Stage`: a model
 * that is not a plain MiniMindTS (LoRA: adapters beside frozen weights), a loss that is not the
 * model's own (distillation: a teacher's logits too), and weights to export that are not every
 * parameter (LoRA: the adapters alone). lib/train/run.ts calls these when a stage has them
 * (see `buildStageModel` and `stageLoss` below, which give the defaults).
 */
import * as tf from "../tf.js";
import { MiniMindTS, type ModelOptions } from "../model/model.js";
import type { MiniMindConfig } from "../model/config.js";
import type { Stage, StageContext } from "./stage.js";

/** The model a stage trains, and how the loop saves and frees it. */
export interface StageModel {
  model: MiniMindTS;
  /** The variables the optimiser updates. */
  trainable: tf.Variable[];
  /**
   * Every variable by a stable name (MiniMind's): what a resume checkpoint stores and restores,
   * and how the optimiser's moments are keyed.
   */
  named: Record<string, tf.Variable>;
  /** The weights file of the stage (default: `named`). LoRA writes only its adapters. */
  exportWeights?(): Record<string, tf.Tensor>;
  /** Lines for the run's header ("LoRA: 8,192 trainable of 484,480 (1.69%)"). */
  describe?(): string[];
  dispose(): void;
}

export interface StageHooks {
  /**
   * Builds the model from `weights` (the --from weights, or a resume checkpoint's, which also hold
   * the stage's own variables by name) or from a seed when there are none.
   */
  buildModel?(ctx: StageContext, config: MiniMindConfig, weights: Record<string, tf.Tensor> | undefined, opts: ModelOptions): StageModel;
  /** The scalar to minimise on one batch, inside the loop's gradient tape. */
  loss?(ctx: StageContext, model: MiniMindTS, inputIds: tf.Tensor2D, labels: tf.Tensor2D): tf.Scalar;
}

export type PostTrainingStage = Stage & StageHooks;

/** `stage.buildModel`, or the plain model every parameter of which trains. */
export function buildStageModel(stage: PostTrainingStage, ctx: StageContext, config: MiniMindConfig, weights: Record<string, tf.Tensor> | undefined, opts: ModelOptions, seed: number): StageModel {
  if (stage.buildModel) return stage.buildModel(ctx, config, weights, opts);
  const model = weights ? new MiniMindTS(config, weights, opts) : MiniMindTS.init(config, seed, opts);
  return { model, trainable: stage.trainable?.(model) ?? model.trainableVariables(), named: model.params, dispose: () => model.dispose() };
}

/** `stage.loss`, or the model's own next-token loss (plus the MoE aux loss). */
export function stageLoss(stage: PostTrainingStage, ctx: StageContext, model: MiniMindTS, inputIds: tf.Tensor2D, labels: tf.Tensor2D): tf.Scalar {
  return stage.loss ? stage.loss(ctx, model, inputIds, labels) : model.loss(inputIds, labels).loss;
}
