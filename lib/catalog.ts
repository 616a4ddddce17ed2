/**
 * Every lesson of the course: its id, markdown file, title and module. Pure data, cheap to import
 * (the grader's command line reads it without loading TensorFlow.js).
 *
 * A lesson is graded when `grader/<id>/cases.ts` exists; this list does not need to change when
 * a grader is added.
 */
export type CourseModule = "foundations" | "model" | "training" | "alignment" | "rl" | "areal";

export interface LessonInfo {
  /** "lesson-23" */
  id: string;
  number: number;
  /** file name under lessons/, e.g. "23-ppo-training-flow.md" */
  file: string;
  title: string;
  module: CourseModule;
}

export const MODULE_TITLES: Record<CourseModule, string> = {
  foundations: "Foundations",
  model: "The model",
  training: "Training",
  alignment: "Alignment",
  rl: "Reinforcement learning",
  areal: "The AReaL track",
};

/** MODULE_TITLES in Chinese (the site's zh/ pages, COURSE_LANG=zh). */
export const MODULE_TITLES_ZH: Record<CourseModule, string> = {
  foundations: "基础",
  model: "模型",
  training: "训练",
  alignment: "对齐",
  rl: "强化学习",
  areal: "AReaL 专题",
};

const LESSONS: Array<[number, string, string, CourseModule]> = [
  [1, "project-map", "Project map", "foundations"],
  [2, "environment-data-weights", "Environment, data and weights", "foundations"],
  [3, "inference-end-to-end", "Inference end to end", "foundations"],
  [4, "tokenizer", "Tokenizer", "foundations"],
  [5, "sft-data-and-labels", "SFT data and labels", "foundations"],
  [6, "pretrain-vs-sft", "Pretrain vs SFT", "foundations"],
  [7, "pretrain-entry", "Pretrain entry", "foundations"],
  [8, "config-and-parameter-count", "Config and parameter count", "model"],
  [9, "embedding-rmsnorm-residual", "Embedding, RMSNorm and the residual stream", "model"],
  [10, "forward-and-loss-shift", "Forward pass and the loss shift", "model"],
  [11, "attention", "Attention", "model"],
  [12, "rope-and-kv-cache", "RoPE and the KV cache", "model"],
  [13, "ffn-and-moe", "Feed-forward and mixture of experts", "model"],
  [14, "lr-accumulation-precision", "Learning rate, accumulation and precision", "training"],
  [15, "checkpoint-and-resume", "Checkpoint and resume", "training"],
  [16, "full-sft", "Full SFT", "training"],
  [17, "pretrain-to-sft", "From pretrain to SFT", "training"],
  [18, "lora", "LoRA", "alignment"],
  [19, "lora-training", "LoRA training", "alignment"],
  [20, "distillation", "Distillation", "alignment"],
  [21, "dpo-data-and-reference", "DPO data and the reference model", "alignment"],
  [22, "dpo-loss", "The DPO loss", "alignment"],
  [23, "ppo-training-flow", "PPO, end to end", "rl"],
  [24, "grpo-and-cispo", "GRPO and CISPO", "rl"],
  [25, "reward-logprob-kl", "Rewards, log-probs and KL", "rl"],
  [26, "tool-use-agentic-rl", "Tool use and agentic RL", "rl"],
  [27, "conversion-api-webui", "Conversion, API and web UI", "rl"],
  [28, "capstone", "Capstone", "rl"],
  [29, "decoupled-ppo", "Decoupled PPO", "areal"],
  [30, "proximal-approximation-staleness", "Proximal approximation and staleness", "areal"],
  [31, "m2po", "M2PO", "areal"],
  [32, "gspo-and-sapo", "GSPO and SAPO", "areal"],
  [33, "areal-advantages", "AReaL's advantage pipeline", "areal"],
  [34, "normalisation-and-batching", "Normalisation and micro-batching", "areal"],
];

export const CATALOG: readonly LessonInfo[] = LESSONS.map(([number, slug, title, module]) => ({
  id: lessonId(number),
  number,
  file: `${String(number).padStart(2, "0")}-${slug}.md`,
  title,
  module,
}));

/** "lesson-23" for 23. Lesson ids are not zero-padded below 10 ("lesson-3"). */
export function lessonId(n: number): string {
  return `lesson-${n}`;
}

/**
 * Finds a lesson by "lesson-23", "lesson-03", "23" or "03"; undefined when there is none.
 */
export function findLesson(name: string): LessonInfo | undefined {
  const m = /^(?:lesson-?)?0*(\d+)$/i.exec(name.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return CATALOG.find((l) => l.number === n);
}
