/**
 * Pretraining (trainer/train_pretrain.py): next-token prediction on plain text, from a seeded
 * initialisation. Data: datasets/corpus/pretrain.jsonl (`{"text": …}` lines, MiniMind's pretrain
 * format; generated from its seed at first use by `npm run train -- pretrain`, or by `npm run data`)
 * with datasets/corpus/pretrain-heldout.jsonl held out, or
 * --data FILE (.jsonl, or a text file of one passage a line) with every 8th record held out.
 * Samples are lesson 6's `pretrainSample`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../course/paths.js";
import { isTextRecord } from "../../data/jsonl.js";
import { asSample, loadRecords, shown, splitHeldOut, type PretrainSample } from "../data.js";
import type { Stage, StageContext } from "../stage.js";


const CORPUS = join(ROOT, "datasets", "corpus", "pretrain.jsonl");
const SAMPLE = join(ROOT, "datasets", "corpus", "pretrain-sample.jsonl");
const HELD_OUT = join(ROOT, "datasets", "corpus", "pretrain-heldout.jsonl");

const texts = (path: string, limit?: number) => loadRecords<string>(path, isTextRecord, (line) => line, limit).then((r) => ({ ...r, records: r.records.map((x) => (typeof x === "string" ? x : (x as { text: string }).text)) }));

const stage: Stage = {
  name: "pretrain",
  summary: "next-token prediction on plain text, from scratch",
  weightName: "pretrain",
  functions: { pretrainSample: "lesson-6" },
  async loadData(ctx) {
    const pretrainSample = ctx.fns.pretrainSample as PretrainSample;
    const sample = (text: string) => asSample(pretrainSample(text, ctx.tok, ctx.settings.maxSeqLen));
    if (ctx.dataPath) {
      const read = await texts(ctx.dataPath);
      const { train, heldOut } = splitHeldOut(read.records.map(sample), ctx.settings.heldOutEvery);
      return { train, heldOut, source: `${shown(ctx.dataPath)} (${read.records.length} records, every ${ctx.settings.heldOutEvery}th held out)`, skipped: read.skipped, problems: read.problems };
    }
    const file = existsSync(CORPUS) ? CORPUS : SAMPLE;
    // npm run train -- pretrain and npm run capstone generate the corpus first (tools/data/ensure.ts);
    // a caller of this module that did not gets the committed sample, and is told so.
    if (file === SAMPLE) ctx.log(`(${shown(CORPUS)} is not there: \`npm run data\` writes it in about a second, and \`npm run train -- pretrain\` does at first use; this run trains on the 400-record sample)`);
    const read = await texts(file);
    const held = await texts(HELD_OUT, ctx.settings.heldOutLimit);
    return {
      train: read.records.map(sample),
      heldOut: held.records.map(sample),
      source: `${shown(file)} (${read.records.length} records), held out: ${shown(HELD_OUT)} (first ${held.records.length})`,
      skipped: read.skipped + held.skipped,
      problems: [...read.problems, ...held.problems],
    };
  },
  prompts(ctx) {
    return ["One morning the sun was out, and", "Nora had 12 stamps", "The digits of 296", "Twice 194 is"].map((prompt) => ({ prompt, ids: [ctx.tok.bosId, ...ctx.tok.encode(prompt)] }));
  },
};

export default stage;
