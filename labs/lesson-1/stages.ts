/**
 * The course's pipeline, stage by stage: the lessons that teach it, MiniMind's script for it
 * (d65ef2c), and the command that runs it here. Lesson 1's lab and figure read this table.
 */
export interface Stage {
  name: string;
  /** What the stage produces. */
  makes: string;
  lessons: number[];
  /** MiniMind's file(s) for this stage. */
  minimind: string;
  /** The command that runs the stage in this course. */
  command: string;
}

export const STAGES: Stage[] = [
  { name: "tokenizer", makes: "tokenizer.json", lessons: [4], minimind: "trainer/train_tokenizer.py", command: "npm run train-tokenizer" },
  { name: "data", makes: "jsonl samples", lessons: [5, 6, 21], minimind: "dataset/lm_dataset.py", command: "npm run data" },
  { name: "model", makes: "logits", lessons: [3, 8, 9, 10, 11, 12, 13], minimind: "model/model_minimind.py", command: "npm run lab lesson-12" },
  { name: "pretrain", makes: "pretrain_{hidden}", lessons: [7, 14, 15], minimind: "trainer/train_pretrain.py", command: "npm run train -- pretrain" },
  { name: "SFT", makes: "full_sft_{hidden}", lessons: [16, 17], minimind: "trainer/train_full_sft.py", command: "npm run train -- sft" },
  { name: "LoRA / distill", makes: "lora_*, distill", lessons: [18, 19, 20], minimind: "trainer/train_lora.py, train_distillation.py", command: "npm run lab lesson-19" },
  { name: "DPO", makes: "dpo_{hidden}", lessons: [22], minimind: "trainer/train_dpo.py", command: "npm run lab lesson-22" },
  { name: "PPO / GRPO", makes: "ppo_actor, grpo", lessons: [23, 24, 25], minimind: "trainer/train_ppo.py, train_grpo.py", command: "npm run lab lesson-23" },
  { name: "agent RL", makes: "agent", lessons: [26], minimind: "trainer/train_agent.py", command: "npm run lab lesson-26" },
  { name: "serve", makes: "an API", lessons: [27], minimind: "scripts/serve_openai_api.py", command: "npm run serve" },
  { name: "AReaL", makes: "async RL", lessons: [29, 30, 31, 32, 33, 34], minimind: "(AReaL areal/)", command: "npm run lab areal-async" },
];
