/**
 * Lab 6 — the two label schemes side by side, as a coloured token table.
 *
 * One conversation from the course's SFT data (datasets/corpus/sft.jsonl) goes through lesson 5's
 * sftSample, and its plain text through lesson 6's pretrainSample, both with the course tokenizer
 * (datasets/tokenizer/). Each row is a position: the token, then its label under each scheme,
 * green when the loss learns it, grey when it is -100. Runs your functions where they pass
 * grading, the reference elsewhere (the lab prints which).
 *   npm run lab lesson-6 [-- --record 3] [--max-length 80] [--use-reference all]
 */
import { join } from "node:path";
import chalk from "chalk";
import { ROOT } from "../../grader/engine/paths.js";
import { Rng } from "../../lib/random.js";
import { isConversationRecord, newReport, readJsonl } from "../../lib/data/jsonl.js";
import { courseTokenizer, type TextTokenizer } from "../../lib/tokenizer.js";
import type * as Sft from "../../exercises/lesson-5/sft.js";
import type * as Pretrain from "../../exercises/lesson-6/pretrain.js";
import { labFunctions, type Lab } from "../lab.js";

type Functions = { sftSample: typeof Sft.sftSample; pretrainSample: typeof Pretrain.pretrainSample };

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 2) throw new Error(`--${name} needs an integer ≥ 2 (got ${args[i + 1]})`);
  return v;
}

const show = (t: string) => JSON.stringify(t).slice(1, -1);

const lab: Lab = async (ctx) => {
  const record = option(ctx.args, "record", 3);
  const maxLength = option(ctx.args, "max-length", 80);
  console.log("Lab 6: one conversation under SFT labels and pretraining labels\n");
  const { sftSample, pretrainSample } = await labFunctions<Functions>(ctx, { sftSample: "lesson-5", pretrainSample: "lesson-6" });
  const tok: TextTokenizer = courseTokenizer();
  const report = newReport();
  let conv: Sft.SftMessage[] | undefined;
  let n = 0;
  for await (const r of readJsonl<{ conversations: Sft.SftMessage[] }>(join(ROOT, "datasets", "corpus", "sft.jsonl"), report, { check: isConversationRecord })) {
    if (++n === record) conv = r.conversations;
  }
  if (!conv) throw new Error(`datasets/corpus/sft.jsonl has ${n} records; --record ${record} is past the end`);
  const rng = new Rng(6);
  const sft = sftSample(conv, tok, maxLength, () => rng.next());
  const text = conv.map((m) => m.content ?? "").filter(Boolean).join("\n");
  const pre = pretrainSample(text, tok, maxLength);

  const cell = (label: number) => (label === -100 ? chalk.gray("  -100") : chalk.green(String(label).padStart(6)));
  console.log(`Record ${record} of sft.jsonl, maxLength ${maxLength}, the course tokenizer (${(tok as { vocabSize?: number }).vocabSize} ids).`);
  console.log(`${"pos".padStart(4)}  ${"SFT token".padEnd(22)} ${"label".padStart(6)}   ${"pretrain token".padEnd(22)} ${"label".padStart(6)}`);
  for (let j = 0; j < maxLength; j++) {
    const a = show(tok.decode([sft.inputIds[j]!]));
    const b = show(tok.decode([pre.inputIds[j]!]));
    console.log(`${String(j).padStart(4)}  ${a.slice(0, 22).padEnd(22)} ${cell(sft.labels[j]!)}   ${b.slice(0, 22).padEnd(22)} ${cell(pre.labels[j]!)}`);
  }
  const learned = (l: number[]) => l.filter((x) => x !== -100).length;
  console.log(`\nLabelled positions: SFT ${learned(sft.labels)} of ${maxLength} (the assistant's tokens and their <|im_end|>\\n), pretraining ${learned(pre.labels)} (every real token).`);
  if (report.skipped) console.log(`(${report.skipped} malformed line(s) of sft.jsonl skipped)`);
};

export default lab;
