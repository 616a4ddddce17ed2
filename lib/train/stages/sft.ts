/**
 * Full SFT (trainer/train_full_sft.py): the same next-token loss, on chat conversations, with
 * labels only on the assistant's replies, starting from pretrained weights (--from).
 * Data: a .jsonl of `{"conversations": [{"role", "content"}, …]}` lines (MiniMind's SFT format).
 */
import { existsSync } from "node:fs";
import { readRecords, splitHeldOut, type Sample } from "../data.js";
import { loadWeights } from "../checkpoint.js";
import { TrainError } from "../errors.js";
import type { Stage } from "../stage.js";
import type { TrainTokenizer } from "../tokenizer.js";

interface Message {
  role: string;
  content: string;
}

function pickConversation(value: unknown): Message[] | string {
  const conv = (value as { conversations?: unknown } | null)?.conversations;
  if (!Array.isArray(conv) || conv.length === 0) return 'no "conversations" list';
  for (const m of conv) {
    if (typeof m?.role !== "string" || typeof m?.content !== "string") return 'a message without string "role" and "content"';
  }
  if (!conv.some((m: Message) => m.role === "assistant")) return "no assistant message";
  return conv as Message[];
}

/** `<|im_start|>role\ncontent<|im_end|>\n` per message: MiniMind's chat template without tools or thinking. */
export function renderChatIds(tok: TrainTokenizer, messages: readonly Message[]): number[] {
  return messages.flatMap((m) => [tok.bosId, ...tok.encode(`${m.role}\n${m.content}`), tok.eosId, ...tok.encode("\n")]);
}

/**
 * Labels on the assistant's replies only: every token after an `<|im_start|>assistant\n` up to and
 * including the `<|im_end|>\n` that closes it; −100 elsewhere (dataset/lm_dataset.py:84-101). A
 * simple stand-in for lesson 5's `sftLabels`.
 */
export function assistantLabels(tok: TrainTokenizer, ids: readonly number[]): number[] {
  const open = [tok.bosId, ...tok.encode("assistant\n")];
  const close = [tok.eosId, ...tok.encode("\n")];
  const at = (i: number, seq: number[]) => seq.every((t, j) => ids[i + j] === t);
  const labels = new Array<number>(ids.length).fill(-100);
  let i = 0;
  while (i < ids.length) {
    if (!at(i, open)) {
      i++;
      continue;
    }
    const start = i + open.length;
    let end = start;
    while (end < ids.length && !at(end, close)) end++;
    for (let j = start; j < Math.min(end + close.length, ids.length); j++) labels[j] = ids[j];
    i = end < ids.length ? end + close.length : ids.length;
  }
  return labels;
}

function sftSample(tok: TrainTokenizer, messages: Message[], maxLength: number): Sample {
  const ids = renderChatIds(tok, messages).slice(0, maxLength);
  const inputIds = new Int32Array(maxLength).fill(tok.padId);
  inputIds.set(ids);
  return { inputIds, labels: Int32Array.from(assistantLabels(tok, Array.from(inputIds))) };
}

const stage: Stage = {
  name: "sft",
  summary: "supervised fine-tuning on conversations, labels on the assistant's replies",
  weightName: "full_sft",
  defaultData: "datasets/sft-tiny.jsonl",
  settings: { learningRate: 5e-4, epochs: 5 },
  loadData(ctx) {
    const read = readRecords(ctx.dataPath, pickConversation);
    const samples = read.records.map((m) => sftSample(ctx.tok, m, ctx.settings.maxSeqLen));
    const { train, heldOut } = splitHeldOut(samples, ctx.settings.heldOutEvery);
    return { train, heldOut, source: `${ctx.dataPath}, ${read.records.length} conversations`, skipped: read.skipped, skippedExamples: read.skippedExamples };
  },
  initialWeights(ctx) {
    if (!ctx.fromPath) {
      ctx.log("SFT from a seeded initialisation (no --from): pass --from runs/pretrain-tiny/pretrain_128.safetensors to start from pretrained weights");
      return undefined;
    }
    if (!existsSync(ctx.fromPath)) throw new TrainError(`--from ${ctx.fromPath}: no such weights file`);
    return loadWeights(ctx.fromPath, ctx.config, `--config ${ctx.configName}`);
  },
  prompts(ctx) {
    return ["What does the cat do?", "Tell me about the river."].map((q) => ({
      prompt: q,
      ids: [...renderChatIds(ctx.tok, [{ role: "user", content: q }]), ctx.tok.bosId, ...ctx.tok.encode("assistant\n")],
    }));
  },
};

export default stage;
