/**
 * Lesson 27: the model server under load, on loopback only. The course's tiny chat checkpoint is
 * served (lib/serve/app.ts, continuous batching of up to 4 rows) and autocannon sends a fixed
 * number of streamed chat completions from one connection and from several concurrent ones, in
 * alternating rounds (1, N, 1, N) so that load from elsewhere on the machine hits both alike;
 * reported: requests/s, time to the first token (the first byte of a stream is its first token),
 * p50/p99 latency, errors (should be 0), the resident memory of the HTTP process and of the
 * generation process (should stay flat), and the ratios batching is for, from the medians of the
 * rounds: N clients' requests/s over 1 client's (goal ≥ 2.5 at N = 4) and N clients' first-token
 * p99 over 1 client's (goal ≤ 3). Environment: SERVE_BENCH_CONNECTIONS (4), SERVE_BENCH_REQUESTS
 * (60 a round of N clients), SERVE_BENCH_BACKEND (the generation process's backend, default wasm).
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

const median = (xs: number[]) => quantile(xs, 0.5);

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
  const server = await createModelServer({ checkpoint: TINY_CHAT_CHECKPOINT, useReference: ["all"], maxQueue: connections * 2, maxBatch: 4 });
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
    lines.push(`load: streamed requests ("Hello", greedy, ≤ 64 tokens: 57 generated); rounds of 1 and ${connections} connections, alternating`);
    lines.push("clients × requests  requests/s  first token p50 / p99   latency p50 / p99   errors   RSS http / generation (MB)");
    const single = { clients: 1, requests: Math.max(10, Math.round(amount / 3)) };
    const many = { clients: connections, requests: amount };
    const rounds = [single, many, single, many, single, many];
    const measured: Record<number, { rps: number[]; p99: number[] }> = { 1: { rps: [], p99: [] }, [connections]: { rps: [], p99: [] } };
    for (const round of rounds) {
      const firstToken: number[] = [];
      // autocannon ends a round on a tick of its one-second clock: time it from the first request to the last response.
      const started = performance.now();
      let lastResponse = started;
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
          client.on("response", (_status, _bytes, responseTime) => {
            lastResponse = performance.now();
            firstToken.push(responseTime - (lastResponse - headersAt));
          });
        },
      });
      const errors = result.errors + result.timeouts + result.non2xx;
      const rps = result.requests.total / ((lastResponse - started) / 1000);
      measured[round.clients].rps.push(rps);
      measured[round.clients].p99.push(quantile(firstToken, 0.99));
      const m = memory();
      lines.push(
        `${`${round.clients} × ${round.requests}`.padEnd(18)}  ${rps.toFixed(2).padStart(10)}  ` +
          `${quantile(firstToken, 0.5).toFixed(0).padStart(6)} / ${quantile(firstToken, 0.99).toFixed(0).padEnd(6)} ms     ` +
          `${String(result.latency.p50).padStart(5)} / ${String(result.latency.p99).padEnd(6)} ms  ${String(errors).padStart(6)}   ` +
          `${before.http.toFixed(0)} → ${m.http.toFixed(0)} / ${before.generation.toFixed(0)} → ${m.generation.toFixed(0)}`,
      );
    }
    const rpsRatio = median(measured[connections].rps) / median(measured[1].rps);
    const p99Ratio = median(measured[connections].p99) / median(measured[1].p99);
    lines.push(
      `${connections} clients / 1 client (medians of the rounds): requests/s × ${rpsRatio.toFixed(2)} (goal ≥ 2.5), first-token p99 × ${p99Ratio.toFixed(2)} (goal ≤ 3)`,
    );
    lines.push("The concurrent requests share decoding steps (continuous batching), so requests/s grows with the");
    lines.push("clients while one step costs about what it costs for one row; one at a time (--batch 1) it would not.");
  } finally {
    await server.app.close();
  }
  return lines.join("\n");
}
