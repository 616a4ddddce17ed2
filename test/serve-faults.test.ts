/**
 * The model server under faults (issue 26, "Faults and load"): a generation process killed twice in
 * a row is restarted with backoff while /health tells the truth; request bodies time out (408);
 * nesting is bounded before parsing; streamed and whole replies carry the same fields; Retry-After
 * lets clients who honour it be served; a temperature of 1e-38 is greedy; HTTP-level refusals
 * (408, 431, bad Content-Length, a bad URL, 503 while closing) have OpenAI's error shape; a
 * `__proto__` key is data; the model alias, the API key, CORS and GET /v1/models/{id}; closing
 * tells the requests in flight and ends within its deadline; SIGTERM and SIGINT reach the server
 * through `npm run serve`. The model is the course's tiny chat checkpoint (lib/serve/demo.ts).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { createModelServer, type ModelServer } from "../lib/serve/app.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import { DEMO_EXCHANGES } from "../lib/serve/demo.js";
import { MAX_JSON_DEPTH } from "../lib/serve/json-body.js";
import { processAlive } from "../lib/processes.js";

const reply = (user: string) => DEMO_EXCHANGES.find((e) => e.user === user && !e.tools && !e.thinking)!.reply;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Starts a server on a free loopback port. */
async function serve(opts: Partial<Parameters<typeof createModelServer>[0]> = {}): Promise<{ server: ModelServer; base: string; port: number }> {
  const server = await createModelServer({ checkpoint: TINY_CHAT_CHECKPOINT, useReference: ["all"], ...opts });
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = server.app.server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${port}`, port };
}

/** Bytes straight to the socket, and everything the server sends back until it closes (or `waitMs`). */
function rawHttp(port: number, text: string, waitMs = 20_000): Promise<{ status: number; headers: string; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let got = "";
    const done = () => {
      const [head, ...rest] = got.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), headers: head, body: rest.join("\r\n\r\n"), ms: performance.now() - started });
    };
    socket.on("data", (d) => (got += d.toString()));
    socket.on("close", done);
    socket.on("error", (e) => (got ? done() : reject(e)));
    setTimeout(() => socket.destroy(), waitMs).unref();
  });
}

/** The status and OpenAI-shaped body of a JSON request. */
async function call(base: string, path: string, body?: unknown, headers: Record<string, string> = {}, method = body === undefined ? "GET" : "POST") {
  const r = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json", ...headers }, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: (text ? JSON.parse(text) : null) as ErrorBody & Record<string, unknown> };
}

/** The reasoning and content a streamed request adds up to. */
async function streamed(base: string, body: object): Promise<{ reasoning: string; content: string; events: string[] }> {
  const r = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, stream: true }) });
  const text = await r.text();
  const events = text.split("\n\n").filter((e) => e.startsWith("data: ")).map((e) => e.slice(6));
  let reasoning = "";
  let content = "";
  for (const e of events) {
    if (e === "[DONE]") continue;
    const delta = (JSON.parse(e) as { choices?: Array<{ delta: { reasoning_content?: string; content?: string } }> }).choices?.[0]?.delta;
    reasoning += delta?.reasoning_content ?? "";
    content += delta?.content ?? "";
  }
  return { reasoning, content, events };
}

/** JSON text nested `depth` deep: {"a":{"a":…{}…}}. */
const nested = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
const hello = { model: "tiny-chat", messages: [{ role: "user", content: "Hello" }], temperature: 0 };

describe("one server, many faults", { timeout: 180_000 }, () => {
  let server: ModelServer;
  let base: string;
  let port: number;
  beforeAll(async () => {
    ({ server, base, port } = await serve({ maxQueue: 1, maxBatch: 1, requestTimeoutMs: 1500 }));
  }, 120_000);
  afterAll(async () => {
    await server?.app.close();
  });

  it("a generation process killed, then its replacement 0.3 s later, is restarted with backoff; /health says so meanwhile", async () => {
    const first = server.engine.pid!;
    process.kill(first, "SIGKILL");
    // The replacement is started as soon as the death is noticed: on a loaded machine that can take
    // longer than 0.3 s, so wait for it (up to 10 s), then kill it at once, while it is still starting.
    await sleep(300);
    for (let i = 0; i < 100 && (server.engine.pid === undefined || server.engine.pid === first); i++) await sleep(100);
    const replacement = server.engine.pid;
    expect(replacement).toBeDefined();
    expect(replacement).not.toBe(first);
    process.kill(replacement!, "SIGKILL");
    const during = await call(base, "/health");
    expect(during.status).toBe(503);
    expect(during.json.status).toBe("restarting");
    // A request sent meanwhile waits for the model instead of failing.
    const waiting = call(base, "/v1/chat/completions", hello);
    let healthy = false;
    for (let i = 0; i < 240 && !healthy; i++) {
      await sleep(250);
      const h = await call(base, "/health");
      healthy = h.status === 200 && h.json.status === "ok";
    }
    expect(healthy).toBe(true);
    const served = await waiting;
    expect(served.status).toBe(200);
    expect((served.json.choices as Array<{ message: { content: string } }>)[0].message.content).toBe(reply("Hello"));
    expect(server.engine.pid).not.toBe(replacement);
  });

  it("a request body that never finishes arriving gets 408 in OpenAI's shape", async () => {
    const r = await rawHttp(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    expect(r.status).toBe(408);
    expect((JSON.parse(r.body) as ErrorBody).error.code).toBe("request_timeout");
    expect(r.ms).toBeLessThan(15_000);
  });

  it("headers too large → 431, a bad Content-Length → 400, a bad URL → 400, all in OpenAI's shape", async () => {
    const big = await rawHttp(port, `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect((JSON.parse(big.body) as ErrorBody).error.code).toBe("headers_too_large");
    const length = await rawHttp(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ten\r\n\r\n{}`);
    expect(length.status).toBe(400);
    expect((JSON.parse(length.body) as ErrorBody).error.code).toBe("invalid_content_length");
    const url = await call(base, "/v1/models/%E0%A4%A");
    expect(url.status).toBe(400);
    expect(url.json.error.code).toBe("invalid_url");
  });

  it(`nesting deeper than ${MAX_JSON_DEPTH} → 400 before parsing (4,000 deep in parameters or arguments)`, async () => {
    const deep = nested(4000);
    const inTools = `{"model":"tiny-chat","messages":[{"role":"user","content":"Hello"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deep}}}]}`;
    const inArgs = `{"model":"tiny-chat","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":${deep}}}]},{"role":"user","content":"Hello"}]}`;
    for (const body of [inTools, inArgs]) {
      const r = await call(base, "/v1/chat/completions", body);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(/4\d{3} levels deep/);
    }
    // Brackets inside strings are text, not nesting.
    const r = await call(base, "/v1/chat/completions", { ...hello, messages: [{ role: "user", content: "[".repeat(MAX_JSON_DEPTH * 5) }], max_tokens: 3 });
    expect(r.status).toBe(200);
  });

  it("a __proto__ key is data: it neither fails the request nor sets fields", async () => {
    const body = `{"model":"tiny-chat","messages":[{"role":"user","content":"Hello"}],"temperature":0,"__proto__":{"stream":true,"max_tokens":1},
      "tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"__proto__":{"type":"string"}}}}}]}`;
    const r = await call(base, "/v1/chat/completions", body);
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("chat.completion"); // not streamed
    expect((r.json.usage as { completion_tokens: number }).completion_tokens).toBeGreaterThan(1);
  });

  it("open_thinking with a reply that never closes </think>: streamed and whole replies carry the same fields", async () => {
    const body = { ...hello, open_thinking: true, max_tokens: 30 };
    const whole = await call(base, "/v1/chat/completions", body);
    const message = (whole.json.choices as Array<{ message: { content: string | null; reasoning_content?: string } }>)[0].message;
    const stream = await streamed(base, body);
    expect(stream.reasoning.length).toBeGreaterThan(0);
    expect(message.reasoning_content ?? "").toBe(stream.reasoning);
    expect(message.content ?? "").toBe(stream.content);
  });

  it("temperature 1e-38 decodes greedily (1e-20 and 0 give the same text)", async () => {
    const texts = [];
    for (const temperature of [0, 1e-20, 1e-38]) {
      const r = await call(base, "/v1/chat/completions", { ...hello, temperature });
      texts.push((r.json.choices as Array<{ message: { content: string } }>)[0].message.content);
    }
    expect(texts).toEqual([reply("Hello"), reply("Hello"), reply("Hello")]);
  });

  it("the model alias 'minimind' and GET /v1/models/{id}", async () => {
    const r = await call(base, "/v1/chat/completions", { ...hello, model: "minimind" });
    expect(r.status).toBe(200);
    expect(r.json.model).toBe("tiny-chat");
    expect((await call(base, "/v1/models/tiny-chat")).json).toMatchObject({ id: "tiny-chat", object: "model" });
    expect((await call(base, "/v1/models/minimind")).status).toBe(200);
    const missing = await call(base, "/v1/models/gpt-4o");
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe("model_not_found");
  });

  it("Retry-After lets 8 clients that honour it, against a queue of 1, all be served with few retries", async () => {
    let refusals = 0;
    const client = async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const r = await call(base, "/v1/chat/completions", { ...hello, max_tokens: 20 });
        if (r.status === 200) return attempt;
        expect(r.status).toBe(429);
        refusals++;
        const wait = Number(r.headers.get("retry-after"));
        expect(wait).toBeGreaterThanOrEqual(1);
        await sleep(wait * 1000);
      }
      throw new Error("not served after 20 attempts");
    };
    const attempts = await Promise.all(Array.from({ length: 8 }, client));
    expect(attempts.every((a) => a < 20)).toBe(true);
    // Two are taken at once (one runs, one waits); each refusal is told a distinct place, so few are refused twice.
    expect(refusals).toBeGreaterThanOrEqual(6);
    expect(refusals).toBeLessThanOrEqual(16);
  });
});

describe("access: API key and CORS", { timeout: 120_000 }, () => {
  let server: ModelServer;
  let base: string;
  beforeAll(async () => {
    ({ server, base } = await serve({ apiKey: "sk-course", corsOrigins: ["http://localhost:5173"] }));
  }, 120_000);
  afterAll(async () => {
    await server?.app.close();
  });

  it("--api-key: 401 without the key or with a wrong one, 200 with it; the page itself needs none", async () => {
    const none = await call(base, "/v1/models");
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("invalid_api_key");
    expect((await call(base, "/v1/models", undefined, { authorization: "Bearer nope" })).status).toBe(401);
    expect((await call(base, "/v1/models", undefined, { authorization: "Bearer sk-course" })).status).toBe(200);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it("OPTIONS preflight: 204 with CORS headers for the server's own origin and a named one, none for others", async () => {
    const preflight = (origin: string) =>
      fetch(`${base}/v1/chat/completions`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
    const own = await preflight(base);
    expect(own.status).toBe(204);
    expect(own.headers.get("access-control-allow-origin")).toBe(base);
    expect(own.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect((await preflight("http://localhost:5173")).headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const other = await preflight("http://evil.example");
    expect(other.status).toBe(204);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const get = await fetch(`${base}/v1/models`, { headers: { origin: "http://localhost:5173", authorization: "Bearer sk-course" } });
    expect(get.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    // A streamed reply, whose headers are written by hand, carries them too.
    const stream = await fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { origin: "http://localhost:5173", authorization: "Bearer sk-course", "content-type": "application/json" },
      body: JSON.stringify({ ...hello, stream: true, max_tokens: 3 }),
    });
    expect(stream.headers.get("content-type")).toMatch(/event-stream/);
    expect(stream.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    await stream.text();
  });
});

describe("closing", { timeout: 120_000 }, () => {
  it("tells the requests in flight (503, an error event), answers new ones 503, and ends within its deadline despite a slow client", async () => {
    const { server, base, port } = await serve({ shutdownMs: 1500 });
    const long = { model: "tiny-chat", messages: [{ role: "user", content: "Tell me a long story" }], temperature: 1, max_tokens: 900, stream: true };
    // A stream that has begun, its generation process then frozen so that it cannot finish first.
    const response = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(long) });
    const reader = response.body!.getReader();
    let streamedText = new TextDecoder().decode((await reader.read()).value);
    process.kill(server.engine.pid!, "SIGSTOP");
    const stream = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) streamedText += new TextDecoder().decode(r.value);
      return streamedText;
    })();
    const whole = call(base, "/v1/chat/completions", { ...long, stream: false }); // waits behind it
    const slow = rawHttp(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`, 30_000);
    // A keep-alive connection opened before closing, its request sent while closing.
    const open = connect(port, "127.0.0.1");
    await new Promise((r) => open.once("connect", r));
    let late = "";
    open.on("data", (d) => (late += d.toString()));
    await sleep(1000);
    const started = performance.now();
    const closed = server.app.close();
    open.write("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
    await closed;
    expect(performance.now() - started).toBeLessThan(6000);
    expect(late).toMatch(/^HTTP\/1\.1 503/);
    expect(late).toContain('"code":"service_unavailable"');
    open.destroy();
    const w = await whole;
    expect(w.status).toBe(503);
    expect(w.json.error.message).toMatch(/shutting down/);
    expect(await stream).toMatch(/data: \{"error":\{"message":"the server is shutting down"[\s\S]*data: \[DONE\]/);
    await slow; // its connection was dropped
  });
});

/** Every process whose parent chain leads to `root` (Linux /proc). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [c, pp] of parent) if (pp === p) out.push(c), walk(c);
  };
  walk(root);
  return out;
}
const alive = processAlive;

// SIGTERM goes to npm alone (`kill <pid>`, a process manager): npm passes it to the shell that runs
// the script, which dies without passing it on, so the server notices its parent change. SIGINT
// goes to the whole process group, as a terminal's Ctrl-C sends it.
describe.skipIf(process.platform !== "linux")("signals through npm", { timeout: 240_000 }, () => {
  for (const [signal, to] of [["SIGTERM", "npm"], ["SIGINT", "its process group"]] as const) {
    it(`${signal} to \`npm run serve\` (to ${to}) stops the server and its generation process`, async () => {
      const npm = spawn("npm", ["run", "serve", "--", "--port", "0"], { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "wasm" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
      let out = "";
      npm.stdout.on("data", (d) => (out += d));
      npm.stderr.on("data", (d) => (out += d));
      for (let i = 0; i < 600 && !/Serving on/.test(out); i++) await sleep(200);
      expect(out).toMatch(/Serving on/);
      const family = descendants(npm.pid!);
      expect(family.length).toBeGreaterThanOrEqual(2); // node, and its generation process
      process.kill(to === "npm" ? npm.pid! : -npm.pid!, signal);
      let left = family;
      for (let i = 0; i < 100 && left.length > 0; i++) {
        await sleep(200);
        left = family.filter(alive);
      }
      for (const pid of left) process.kill(pid, "SIGKILL"); // leave nothing behind when it fails
      expect(left, out).toEqual([]);
    });
  }
});
