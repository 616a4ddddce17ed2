/**
 * Lesson 27: the model server under load, on loopback only. The course's tiny chat checkpoint is
 * served (lib/serve/app.ts) and autocannon sends a fixed number of streamed chat completions from
 * one connection, then from several concurrent connections twice; reported: requests/s, time to the first
 * token (the first byte of a stream is its first token), p50/p99 latency, errors (should be 0), and
 * the resident memory of the HTTP process and of the generation process before and after
 * (should stay flat). Environment: SERVE_BENCH_CONNECTIONS (4), SERVE_BENCH_REQUESTS (60 a round),
 * SERVE_BENCH_BACKEND (the generation process's backend, default wasm).
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { createModelServer } from "../../lib/serve/app.js";
import { TINY_CHAT_CHECKPOINT } from "../../lib/serve/checkpoints.js";

/** Resident memory of process `pid` in MB (Linux /proc), or NaN elsewhere. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

export default async function serveBench(): Promise<string> {
  const connections = Number(process.env.SERVE_BENCH_CONNECTIONS ?? 4);
  const amount = Number(process.env.SERVE_BENCH_REQUESTS ?? 60);
  const backend = process.env.SERVE_BENCH_BACKEND ?? "wasm";
  const previous = process.env.COURSE_BACKEND;
  process.env.COURSE_BACKEND = backend;
  const server = await createModelServer({ checkpoint: TINY_CHAT_CHECKPOINT, useReference: ["all"], maxQueue: connections * 2 });
  if (previous === undefined) delete process.env.COURSE_BACKEND;
  else process.env.COURSE_BACKEND = previous;
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = server.app.server.address() as { port: number };
  const body = JSON.stringify({ model: server.modelId, messages: [{ role: "user", content: "Hello" }], stream: true, temperature: 0, max_tokens: 64 });
  const lines: string[] = [];
  try {
    // Warm-up: the first generations compile kernels and grow the heaps.
    for (let i = 0; i < 3; i++) await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text());
    const memory = () => ({ http: rssMb(process.pid), generation: server.engine.pid ? rssMb(server.engine.pid) : NaN });
    const before = memory();
    lines.push(`Serving ${server.modelId} (${(server.ready.parameters / 1e6).toFixed(2)}M parameters, ${server.ready.backend} backend) on 127.0.0.1:${port}`);
    lines.push(`load: streamed requests ("Hello", greedy, ≤ 64 tokens: 57 generated); one connection first, then ${connections} twice`);
    lines.push("clients × requests  requests/s  first token p50 / p99   latency p50 / p99   errors   RSS http / generation (MB)");
    const rounds = [{ clients: 1, requests: Math.max(10, Math.round(amount / 3)) }, { clients: connections, requests: amount }, { clients: connections, requests: amount }];
    for (const round of rounds) {
      const firstToken: number[] = [];
      const result = await autocannon({
        url: `http://127.0.0.1:${port}/v1/chat/completions`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        connections: round.clients,
        amount: round.requests,
        timeout: 120,
        setupClient: (client) => {
          // A request's whole time minus the time after its headers (= its first token) arrived.
          let headersAt = 0;
          client.on("headers", () => (headersAt = performance.now()));
          client.on("response", (_status, _bytes, responseTime) => firstToken.push(responseTime - (performance.now() - headersAt)));
        },
      });
      const errors = result.errors + result.timeouts + result.non2xx;
      const m = memory();
      lines.push(
        `${`${round.clients} × ${round.requests}`.padEnd(18)}  ${(result.requests.total / (result.duration || 1)).toFixed(2).padStart(10)}  ` +
          `${quantile(firstToken, 0.5).toFixed(0).padStart(6)} / ${quantile(firstToken, 0.99).toFixed(0).padEnd(6)} ms     ` +
          `${String(result.latency.p50).padStart(5)} / ${String(result.latency.p99).padEnd(6)} ms  ${String(errors).padStart(6)}   ` +
          `${before.http.toFixed(0)} → ${m.http.toFixed(0)} / ${before.generation.toFixed(0)} → ${m.generation.toFixed(0)}`,
      );
    }
    lines.push("One model generates one reply at a time: requests/s is about 1 / (time of one generation) whatever the");
    lines.push("number of connections, and the first-token time includes the wait in the queue.");
  } finally {
    await server.app.close();
  }
  return lines.join("\n");
}
