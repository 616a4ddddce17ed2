/**
 * npm run data — writes the course's corpora into datasets/corpus/ from their seeds (see
 * datasets/README.md). The small files are committed; pretrain.jsonl (≈ 6 MB) is generated here
 * or at first use by `npm run train-tokenizer`, and is gitignored.
 */
import { SingleBar, Presets } from "cli-progress";
import { CORPUS_DIR, PRETRAIN, writePretrain, writeSmallFiles } from "./generate.js";

writeSmallFiles();
const bar = new SingleBar({ format: "pretrain.jsonl [{bar}] {percentage}% · {value}/{total} bytes" }, Presets.shades_classic);
bar.start(PRETRAIN.bytes, 0);
await writePretrain(CORPUS_DIR, (b) => bar.update(Math.min(b, PRETRAIN.bytes)));
bar.stop();
console.log(`wrote ${CORPUS_DIR}`);
