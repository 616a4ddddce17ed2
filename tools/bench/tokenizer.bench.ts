/**
 * The tokenizer's speed, measured in one run on this machine:
 * - encode throughput (MB/s) of lib/tokenizer.ts's loadTokenizer on MiniMind's tokenizer.json,
 *   beside @huggingface/tokenizers (the library's JavaScript edition) on the same text; goal:
 *   within 2× of it;
 * - lesson 4's bpeTrain (the reference) on 10 MB of the course corpus; goal: under 60 s.
 * Encoding is timed warm (best of 3 passes over held-out text, its upper-cased copy and a CJK-mixed part: ≈ 0.9 MB), each
 * tokenizer having its own cache, as a long-running process would.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers";
import { ROOT } from "../../grader/engine/paths.js";
import { Rng } from "../../lib/random.js";
import { resolveFunction } from "../../lib/resolver.js";
import { loadTokenizer, type BpeModel } from "../../lib/tokenizer.js";
import { pretrainDoc } from "../data/generate.js";

const MM = join(ROOT, "datasets", "minimind-tokenizer");

function bestOf(n: number, f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    best = Math.min(best, performance.now() - t);
  }
  return best / 1000;
}

export default async function tokenizerBench(): Promise<string> {
  const held = readFileSync(join(ROOT, "datasets", "corpus", "pretrain-heldout.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const texts = [...held, ...held.map((t) => t.toUpperCase()), ...held.slice(0, 300).map((t) => t.replace(/[a-z]+/g, (w) => "中文" + w.length))];
  const mb = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
  const ours = loadTokenizer(join(MM, "tokenizer.json"));
  const hf = new HfTokenizer(JSON.parse(readFileSync(join(MM, "tokenizer.json"), "utf8")), JSON.parse(readFileSync(join(MM, "tokenizer_config.json"), "utf8")));
  let same = true;
  for (const t of texts.slice(0, 200)) if (ours.encode(t).join() !== hf.encode(t, { add_special_tokens: false }).ids.join()) same = false;
  const tOurs = bestOf(3, () => texts.forEach((t) => ours.encode(t)));
  const tHf = bestOf(3, () => texts.forEach((t) => hf.encode(t, { add_special_tokens: false })));

  const rng = new Rng(1);
  const corpus: string[] = [];
  let bytes = 0;
  while (bytes < 10e6) {
    const d = pretrainDoc(rng);
    corpus.push(d);
    bytes += Buffer.byteLength(d);
  }
  const { fn: bpeTrain } = await resolveFunction<(t: string[], v: number, s: string[]) => BpeModel>("lesson-4", "bpeTrain", { useReference: true });
  const t0 = performance.now();
  const model = bpeTrain(corpus, 6400, ours.addedTokens.map((a) => a.content));
  const trainS = (performance.now() - t0) / 1000;

  const ratio = tOurs / tHf;
  return [
    "tokenizer (MiniMind's tokenizer.json; warm, best of 3)",
    `  encode ${mb.toFixed(2)} MB   lib/tokenizer.ts ${(mb / tOurs).toFixed(2)} MB/s   @huggingface/tokenizers ${(mb / tHf).toFixed(2)} MB/s   ` +
      `ratio ${ratio.toFixed(2)}× (goal ≤ 2×: ${ratio <= 2 ? "met" : "NOT met"})   same ids on 200 texts: ${same ? "yes" : "NO"}`,
    `  bpeTrain (reference) on ${(bytes / 1e6).toFixed(1)} MB, vocabulary 6,400: ${trainS.toFixed(1)} s, ${model.merges.length} merges (goal < 60 s: ${trainS < 60 ? "met" : "NOT met"})`,
  ].join("\n");
}
