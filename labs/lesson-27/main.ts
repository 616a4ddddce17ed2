/**
 * Lab 27 — one streamed chat completion, event by event. The lab starts the model server on a free
 * loopback port with the course's tiny chat checkpoint (or --checkpoint FILE), sends two streamed
 * requests (thinking opened; the weather tool offered), and prints their server-sent events: the
 * thinking streamed as reasoning_content, then content, and a tool call parsed into tool_calls.
 *
 *   npm run lab lesson-27 [-- --checkpoint FILE] [--use-reference lesson-27]
 */
import { describeRun, parseUseReference } from "../../lib/resolver.js";
import { createModelServer } from "../../lib/serve/app.js";
import { TINY_CHAT_CHECKPOINT } from "../../lib/serve/checkpoints.js";
import { DEMO_TOOLS } from "../../lib/serve/demo.js";
import type { Lab } from "../lab.js";

const lab: Lab = async (ctx) => {
  const i = ctx.args.indexOf("--checkpoint");
  const checkpoint = i >= 0 && ctx.args[i + 1] ? ctx.args[i + 1] : TINY_CHAT_CHECKPOINT;
  console.log(`Lab 27: the server, one event at a time (${ctx.show(checkpoint)})\n`);
  const server = await createModelServer({ checkpoint, useReference: parseUseReference(ctx.args) });
  for (const line of describeRun(server.choices)) console.log(line);
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = server.app.server.address() as { port: number };
  const requests = [
    { title: "thinking opened (open_thinking: true)", body: { messages: [{ role: "user", content: "What is 2 + 3?" }], open_thinking: true } },
    { title: "the weather tool offered", body: { messages: [{ role: "user", content: "What is the weather in Paris?" }], tools: DEMO_TOOLS } },
  ];
  try {
    for (const r of requests) {
      console.log(`\n— ${r.title}: POST /v1/chat/completions, stream: true, temperature 0`);
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: server.modelId, stream: true, temperature: 0, stream_options: { include_usage: true }, ...r.body }),
      });
      const text = await res.text();
      const events = text.split("\n\n").filter((e) => e.startsWith("data: ")).map((e) => e.slice(6));
      const shown = events.length > 14 ? [...events.slice(0, 8), `… ${events.length - 12} more …`, ...events.slice(-4)] : events;
      for (const e of shown) {
        if (!e.startsWith("{")) {
          console.log(`  ${e}`);
          continue;
        }
        const chunk = JSON.parse(e) as { choices: Array<{ delta: object; finish_reason: string | null }>; usage?: object };
        const c = chunk.choices[0];
        console.log(`  ${c ? `delta ${JSON.stringify(c.delta)}${c.finish_reason ? `  finish_reason ${c.finish_reason}` : ""}` : `usage ${JSON.stringify(chunk.usage)}`}`);
      }
      console.log(`  ${events.length} events in ${(performance.now() - started).toFixed(0)} ms (the whole response read at once here; the page reads them as they come)`);
    }
  } finally {
    await server.app.close();
  }
  console.log("\nThe same requests from the browser: npm run serve, then open http://127.0.0.1:8998/");
};

export default lab;
