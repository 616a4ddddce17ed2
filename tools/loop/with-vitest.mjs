// Starts a command that drives vitest (npm run grade, npm run watch): vitest's Node API is loaded
// first, natively, and TypeScript support (tsx) registered only after it, so that tsx's loader
// hooks do not see vitest's few hundred modules (they make that load about 4× slower: 0.2 s → 0.8 s,
// measured here). Then the command's own TypeScript file runs, with its arguments.
//   node tools/loop/with-vitest.mjs tools/loop/grade-cli.ts lesson-23
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

await import("vitest/node");
const { register } = await import("tsx/esm/api");
register();
const [file, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(file), ...args];
await import(pathToFileURL(resolve(file)).href);
