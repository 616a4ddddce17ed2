/**
 * The second process of `npm run bench model`'s "while a second process runs the same steps" row:
 * builds the bench's trainer on wasm, prints "ready" after its first step, then steps until it is
 * killed, or until the bench that started it is gone (it was re-parented), so it never spins on
 * alone.
 */
import { trainer, useBackend } from "./model.bench.js";

const parent = process.ppid;
await useBackend("wasm");
const twin = trainer(true);
twin.step();
process.stdout.write("ready\n");
while (process.ppid === parent) twin.step();
