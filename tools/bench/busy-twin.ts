/**
 * The second process of `npm run bench model`'s "while a second process runs the same steps" row:
 * builds the bench's trainer on wasm, prints "ready" after its first step, then steps until it is
 * killed.
 */
import { trainer, useBackend } from "./model.bench.js";

await useBackend("wasm");
const twin = trainer(true);
twin.step();
process.stdout.write("ready\n");
for (;;) twin.step();
