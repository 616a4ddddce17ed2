/**
 * npm run data — writes the course's corpora into datasets/corpus/ from their seeds (see
 * datasets/README.md). The small files are committed; pretrain.jsonl (≈ 6 MB) is generated here
 * or at first use by `npm run train-tokenizer`, and is gitignored. It takes no arguments:
 * `--help` prints the usage and writes nothing.
 */
import { SingleBar, Presets } from "cli-progress";
import { parseOptions, runCommand } from "../loop/cli-support.js";
import { CORPUS_DIR, PRETRAIN, writePretrain, writeSmallFiles } from "./generate.js";

const USAGE = `usage: npm run data

Writes datasets/corpus/ from its seeds: the small committed files, then pretrain.jsonl (≈ ${Math.round(PRETRAIN.bytes / 1e6)} MB, gitignored).
The same seeds give the same files byte for byte.`;

await runCommand(USAGE, async () => {
  parseOptions(process.argv.slice(2), {});
  writeSmallFiles();
  const bar = new SingleBar({ format: "pretrain.jsonl [{bar}] {percentage}% · {value}/{total} bytes" }, Presets.shades_classic);
  bar.start(PRETRAIN.bytes, 0);
  await writePretrain(CORPUS_DIR, (b) => bar.update(Math.min(b, PRETRAIN.bytes)));
  bar.stop();
  console.log(`wrote ${CORPUS_DIR}`);
  return 0;
}, { lessonFunctions: true });
