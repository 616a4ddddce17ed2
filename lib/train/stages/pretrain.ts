/**
 * Pretraining (trainer/train_pretrain.py): next-token prediction on plain text, from a seeded
 * initialisation. Data: a .jsonl of `{"text": …}` lines (MiniMind's pretrain format) or a text
 * file of one passage a line.
 */
import { ROOT } from "../../../grader/engine/paths.js";
import { pickText, pretrainSample, readRecords, splitHeldOut } from "../data.js";
import type { Stage } from "../stage.js";

const stage: Stage = {
  name: "pretrain",
  summary: "next-token prediction on plain text, from scratch",
  weightName: "pretrain",
  defaultData: "datasets/tiny-corpus.txt",
  loadData(ctx) {
    const read = readRecords(ctx.dataPath, pickText);
    const samples = read.records.map((r) => pretrainSample(ctx.tok, r.text, ctx.settings.maxSeqLen));
    const { train, heldOut } = splitHeldOut(samples, ctx.settings.heldOutEvery);
    return { train, heldOut, source: `${ctx.dataPath.replace(`${ROOT}/`, "")}, ${read.records.length} records`, skipped: read.skipped, skippedExamples: read.skippedExamples };
  },
  prompts(ctx) {
    return ["The cat", "The king", "In winter", "The river"].map((prompt) => ({ prompt, ids: [ctx.tok.bosId, ...ctx.tok.encode(prompt)] }));
  },
};

export default stage;
