/**
 * Full SFT (trainer/train_full_sft.py): the same next-token loss, on chat conversations, with
 * labels only on the assistant's replies, starting from pretrained weights (--from).
 * Data: datasets/corpus/sft.jsonl with sft-heldout.jsonl held out (MiniMind's SFT format,
 * `{"conversations": [{"role", "content", …}, …]}`), or --data FILE with every 8th held out.
 * Samples are lesson 5's `sftSample`; the prompts are rendered by lesson 4's `renderChat`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../course/paths.js";
import { Rng } from "../../random.js";
import { isConversationRecord } from "../../data/jsonl.js";
import { asSample, loadRecords, shown, splitHeldOut } from "../data.js";
import { loadWeights } from "../checkpoint.js";
import { TrainError } from "../errors.js";
import type { Stage, StageContext } from "../stage.js";

interface Message {
  role: string;
  content?: string;
  [key: string]: unknown;
}
type SftSample = (conversations: Message[], tok: StageContext["tok"], maxLength: number, random: () => number) => { inputIds: number[]; labels: number[] };
type RenderChat = (messages: Message[], options?: { addGenerationPrompt?: boolean }) => string;

const TRAIN = join(ROOT, "datasets", "corpus", "sft.jsonl");
const HELD_OUT = join(ROOT, "datasets", "corpus", "sft-heldout.jsonl");

const conversations = (path: string, limit?: number) =>
  loadRecords<{ conversations: Message[] }>(path, isConversationRecord, () => ({ conversations: [] }), limit).then((r) => ({
    ...r,
    records: r.records.filter((c) => c.conversations.length > 0).map((c) => c.conversations),
  }));

const stage: Stage = {
  name: "sft",
  summary: "supervised fine-tuning on conversations, labels on the assistant's replies",
  weightName: "full_sft",
  settings: { learningRate: 5e-4, epochs: 2, maxSeqLen: 128 },
  functions: { sftSample: "lesson-5", renderChat: "lesson-4" },
  async loadData(ctx) {
    const sftSample = ctx.fns.sftSample as SftSample;
    // MiniMind draws the random system prompt and the empty-think removal per sample; a seeded draw keeps runs reproducible.
    const rng = new Rng(ctx.settings.seed);
    const sample = (c: Message[]) => asSample(sftSample(c, ctx.tok, ctx.settings.maxSeqLen, () => rng.next()));
    if (ctx.dataPath) {
      if (!ctx.dataPath.endsWith(".jsonl")) throw new TrainError(`--data ${shown(ctx.dataPath)}: SFT data is a .jsonl of {"conversations": […]} lines`, 2);
      const read = await conversations(ctx.dataPath);
      const { train, heldOut } = splitHeldOut(read.records.map(sample), ctx.settings.heldOutEvery);
      return { train, heldOut, source: `${shown(ctx.dataPath)} (${read.records.length} conversations, every ${ctx.settings.heldOutEvery}th held out)`, skipped: read.skipped, problems: read.problems };
    }
    const read = await conversations(TRAIN);
    const held = await conversations(HELD_OUT, ctx.settings.heldOutLimit);
    return {
      train: read.records.map(sample),
      heldOut: held.records.map(sample),
      source: `${shown(TRAIN)} (${read.records.length} conversations), held out: ${shown(HELD_OUT)} (first ${held.records.length})`,
      skipped: read.skipped + held.skipped,
      problems: [...read.problems, ...held.problems],
    };
  },
  initialWeights(ctx) {
    if (!ctx.fromPath) {
      ctx.log("SFT from a seeded initialisation (no --from): pass --from runs/pretrain-tiny/pretrain_128.safetensors to start from pretrained weights");
      return undefined;
    }
    if (!existsSync(ctx.fromPath)) throw new TrainError(`--from ${shown(ctx.fromPath)}: no such weights file`);
    return loadWeights(ctx.fromPath, ctx.config, `--config ${ctx.configName}`);
  },
  prompts(ctx) {
    const renderChat = ctx.fns.renderChat as RenderChat;
    return ["What is 12 + 30?", "Reverse the word cat.", "Tell me a short story about Nora."].map((q) => ({
      prompt: q,
      ids: ctx.tok.encode(renderChat([{ role: "user", content: q }], { addGenerationPrompt: true })),
    }));
  },
};

export default stage;
