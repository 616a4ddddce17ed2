/**
 * npm run serve -- [--checkpoint FILE] [--lora ADAPTER] [--port 8998] [--host 127.0.0.1] [--max-queue 8]
 *                  [--batch 4] [--history-rounds 0] [--api-key KEY] [--cors-origin URL|*]
 *                  [--use-reference lesson-4,lesson-27|all]
 *
 * Serves a MiniMindTS checkpoint over an OpenAI-compatible API with a chat page at `/`: MiniMind's
 * scripts/serve_openai_api.py and web_demo.py in one. Without --checkpoint it serves the course's
 * tiny chat checkpoint; lab 7 writes your own to labs/lesson-7/out/pretrain_128.safetensors.
 */
import { existsSync, statSync } from "node:fs";
import { describeRun } from "../../lib/resolver.js";
import { createModelServer } from "../../lib/serve/app.js";
import { servedCheckpoint, TINY_CHAT_CHECKPOINT } from "../../lib/serve/checkpoints.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { shown } from "../loop/locations.js";

const USAGE =
  "usage: npm run serve -- [--checkpoint FILE.safetensors] [--lora ADAPTER.safetensors] [--port 8998] [--host 127.0.0.1] [--max-queue 8] [--batch 4] [--history-rounds 0] [--api-key KEY] [--cors-origin URL|*]… [--use-reference lesson-N,…|all]";

/** How long closing may take: requests in flight are told within SHUTDOWN_MS, and the process leaves 2 s after at the latest. */
const SHUTDOWN_MS = 5000;

function fail(message: string): never {
  throw new UsageError(message);
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    checkpoint: { type: "string", default: TINY_CHAT_CHECKPOINT },
    lora: { type: "string" },
    port: { type: "string", default: "8998" },
    host: { type: "string", default: "127.0.0.1" },
    "max-queue": { type: "string", default: "8" },
    batch: { type: "string", default: "4" },
    "history-rounds": { type: "string", default: "0" },
    "api-key": { type: "string" },
    "cors-origin": { type: "string", multiple: true, default: [] },
    "use-reference": { type: "string", multiple: true, default: [] },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`--port must be a whole number from 0 to 65535, got ${values.port}`);
  const maxQueue = Number(values["max-queue"]);
  if (!Number.isInteger(maxQueue) || maxQueue < 0) return fail(`--max-queue must be a whole number ≥ 0, got ${values["max-queue"]}`);
  const maxBatch = Number(values.batch);
  if (!Number.isInteger(maxBatch) || maxBatch < 1) return fail(`--batch must be a whole number ≥ 1, got ${values.batch}`);
  const historyRounds = Number(values["history-rounds"]);
  if (!Number.isInteger(historyRounds) || historyRounds < 0) return fail(`--history-rounds must be a whole number ≥ 0, got ${values["history-rounds"]}`);
  if (values["api-key"] === "") return fail("--api-key needs a key: --api-key sk-…");
  const checkpoint = values.checkpoint!;
  if (!existsSync(checkpoint) || !statSync(checkpoint).isFile()) return fail(`no checkpoint file at ${checkpoint}`);
  if (values.lora !== undefined && (!existsSync(values.lora) || !statSync(values.lora).isFile())) return fail(`no --lora file at ${values.lora}`);
  // --lora: the adapter merged into the checkpoint by lesson 18's mergeLora (a temporary file, removed at exit).
  let served;
  try {
    served = await servedCheckpoint(checkpoint, values.lora, { useReference: values["use-reference"]!.flatMap((v) => v.split(",")) });
  } catch (err) {
    console.error(`could not start the server: ${(err as Error).message}`);
    return 1;
  }
  if (values.lora) for (const line of describeRun(served.choices)) console.log(line);

  // From here a Ctrl-C or SIGTERM is ours: while loading it leaves at once (process.exit runs the
  // engine's exit listener, which kills the generation process); once serving, it closes the
  // server first, and a second one leaves at once.
  let closing: (() => void) | undefined;
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === "SIGINT" ? 130 : 143;
    if (signalled || !closing) {
      if (!closing) console.log(`\n${signal === "SIGINT" ? "Ctrl-C" : signal} while loading: stopped`);
      process.exit(code);
    }
    signalled = true;
    closing();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // `npm run serve` may die of a signal without passing it on: a parent that changed means ours is gone.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) onSignal("SIGTERM");
  }, 500).unref();

  console.log(`Loading ${shown(checkpoint)} …`);
  let server;
  try {
    server = await createModelServer({
      checkpoint: served.path,
      useReference: values["use-reference"]!.flatMap((v) => v.split(",")),
      maxQueue,
      maxBatch,
      historyRounds,
      apiKey: values["api-key"],
      corsOrigins: values["cors-origin"]!,
      shutdownMs: SHUTDOWN_MS,
    });
  } catch (err) {
    console.error(`could not start the server: ${(err as Error).message}`);
    return 1;
  }
  const { ready } = server;
  for (const line of describeRun(server.choices)) console.log(line);
  console.log(
    `\nModel '${server.modelId}': hidden ${ready.config.hiddenSize}, ${ready.config.numHiddenLayers} layers, ${(ready.parameters / 1e6).toFixed(2)}M parameters, ` +
      `context ${ready.config.maxPositionEmbeddings} tokens, ${ready.backend} backend\nTokenizer: ${server.tokenizer.name}`,
  );
  try {
    await server.app.listen({ port, host: values.host });
  } catch (err) {
    await server.app.close();
    console.error(`could not listen on ${values.host}:${port}: ${(err as Error).message}`);
    return 1;
  }
  const address = server.app.server.address();
  const url = typeof address === "object" && address ? `http://${values.host}:${address.port}` : String(address);
  console.log(`\nServing on ${url}/  (chat page)  and  ${url}/v1  (OpenAI API: GET /v1/models, POST /v1/chat/completions)`);
  console.log("Ctrl-C stops it.");
  closing = () => {
    console.log("Stopping: requests in flight are told, and the server is gone within a few seconds.");
    // Closing drops what is left after SHUTDOWN_MS; should anything still hold the process, leave anyway.
    setTimeout(() => process.exit(0), SHUTDOWN_MS + 2000).unref();
    void server.app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  return 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
// A failed start can leave the backend's handles open: exit rather than hang. (Serving keeps running.)
if (process.exitCode) process.exit(process.exitCode);
