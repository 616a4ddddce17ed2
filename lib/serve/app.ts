/**
 * The OpenAI-compatible model server on Fastify: `GET /v1/models` (and `/v1/models/{id}`),
 * `POST /v1/chat/completions` and `POST /v1/completions` (whole or streamed as server-sent
 * events), `/health`, and the chat page at `/` with its own routes. Request bodies are parsed with bounded nesting (json-body.ts) and validated against
 * a JSON schema (ajv, built into Fastify); every refusal, down to HTTP-level ones (http-errors.ts),
 * has OpenAI's error shape and status, and no request can stop the server. Closing tells the
 * requests in flight and ends within a deadline, however slow a client is.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { resolveFunction, type FunctionChoice } from "../resolver.js";
import { chatPrompt, runCompletion, type CompletionContext, type CompletionResult, type CompletionSink, type ParseAssistantText, type RenderChat } from "./completion.js";
import { runTextCompletion } from "./text-completion.js";
import { CALCULATOR_TOOL, executeTool } from "../rl/agent-tools.js";
import { GenerationEngine, QueueFullError, UnavailableError, type Ready } from "./engine.js";
import { ApiError, modelNotFound, validationError } from "./errors.js";
import { answerClientError, frameworkErrorAsApiError } from "./http-errors.js";
import { parseJsonBody } from "./json-body.js";
import { corsHeaders } from "./cors.js";
import { DEMO_TOOLS } from "./demo.js";
import { chatRequestSchema, textCompletionRequestSchema, type ChatRequest, type TextCompletionRequest } from "./schema.js";
import { tokenizerFor, type ChatTokenizer } from "./tokenizer.js";

const PAGE_DIR = fileURLToPath(new URL("./page/", import.meta.url));
/** markdown-it's browser build, which the chat page renders replies with. */
const MARKDOWN_IT = join(dirname(createRequire(import.meta.url).resolve("markdown-it")), "markdown-it.min.js");

export interface ServerOptions {
  checkpoint: string;
  useReference?: string[];
  /** Generations that may wait behind the running ones (default 8); more get 429. */
  maxQueue?: number;
  /** Generations decoded together by continuous batching (default 4; 1: one at a time). */
  maxBatch?: number;
  /** Largest request body in bytes (default 256 KiB); larger gets 413. */
  bodyLimit?: number;
  /** Kill and restart generation when no token comes for this long (default 60 s). */
  stallMs?: number;
  /** A request's headers and body must arrive within this many ms (default 30 s); later gets 408. */
  requestTimeoutMs?: number;
  /** Closing waits this long for requests in flight to be told and end, then drops their connections (default 5 s). */
  shutdownMs?: number;
  /** When set, every /v1 request must send `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** Origins besides the server's own whose pages may call the API (CORS); "*" for any. */
  corsOrigins?: string[];
  /**
   * Earlier rounds (a user message and its reply) the chat page sends along (default 0: the course's
   * models learned single turns, and MiniMind's web demo defaults to 0, scripts/web_demo.py:269).
   */
  historyRounds?: number;
}

/** Model names accepted besides the checkpoint's: the name MiniMind's server answers with (scripts/serve_openai_api.py:224). */
export const MODEL_ALIASES = ["minimind"];

export interface ModelServer {
  app: FastifyInstance;
  engine: GenerationEngine;
  modelId: string;
  tokenizer: ChatTokenizer;
  ready: Ready;
  /** Whose functions this server runs: the model's pieces, the template and the reply parser. */
  choices: FunctionChoice[];
}

/** The refusal for an error thrown by the engine, or undefined when it is not one of the engine's refusals. */
function engineRefusal(err: unknown): ApiError | undefined {
  if (err instanceof QueueFullError) return new ApiError(429, err.message, "rate_limit_error", null, "rate_limit_exceeded", { "retry-after": String(err.retryAfterSeconds) });
  if (err instanceof UnavailableError) return new ApiError(503, err.message, "server_error", null, "service_unavailable", err.retryAfterSeconds === null ? { connection: "close" } : { "retry-after": String(err.retryAfterSeconds) });
  return undefined;
}

function send(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).send(err.body());
}

/** Builds the server (not listening yet): starts the generation process and loads the model. */
export async function createModelServer(opts: ServerOptions): Promise<ModelServer> {
  const useReference = opts.useReference ?? [];
  const template = await resolveFunction<RenderChat>("lesson-4", "renderChat", { useReference });
  const parser = await resolveFunction<ParseAssistantText>("lesson-27", "parseAssistantText", { useReference });
  const engine = new GenerationEngine({ checkpoint: opts.checkpoint, useReference, maxQueue: opts.maxQueue, maxBatch: opts.maxBatch, stallMs: opts.stallMs });
  const requestTimeout = opts.requestTimeoutMs ?? 30_000;
  const ready = await engine.start();
  let tokenizer: ChatTokenizer;
  try {
    tokenizer = tokenizerFor(ready.config.vocabSize, opts.checkpoint);
  } catch (err) {
    await engine.close();
    throw err;
  }
  const modelId = basename(opts.checkpoint, extname(opts.checkpoint));
  let serial = 0;
  const ctx: CompletionContext = {
    engine,
    tokenizer,
    renderChat: template.fn,
    parseAssistantText: parser.fn,
    modelId,
    modelAliases: MODEL_ALIASES,
    contextLength: ready.config.maxPositionEmbeddings,
    nextSerial: () => ++serial,
  };

  const bodyLimit = opts.bodyLimit ?? 256 * 1024;
  const app = Fastify({
    bodyLimit,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, verbose: true, allowUnionTypes: true } },
    logger: false,
    // Node checks request deadlines only every connectionsCheckingInterval (30 s by default).
    serverFactory: (handler) => createServer({ requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout) }, handler),
    requestTimeout,
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => send(reply, frameworkErrorAsApiError(error)),
  });
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit }, (_request, text, done) => {
    try {
      done(null, parseJsonBody(text as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ApiError) return send(reply, error);
    if (error.validation && error.validation.length > 0) return send(reply, validationError(error.validation[0] as Parameters<typeof validationError>[0]));
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return send(reply, new ApiError(413, `Request body too large: the limit is ${bodyLimit} bytes`, "invalid_request_error", null, "request_too_large"));
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return send(reply, new ApiError(415, "Send the request body as JSON (Content-Type: application/json)", "invalid_request_error", null, "unsupported_media_type"));
    if (error.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") return send(reply, new ApiError(400, "The request body's length does not match its Content-Length header", "invalid_request_error", null, "invalid_content_length"));
    const refusal = engineRefusal(error);
    if (refusal) return send(reply, refusal);
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return send(reply, new ApiError(status, status === 500 ? `The server failed: ${error.message}` : error.message, status === 500 ? "server_error" : "invalid_request_error"));
  });
  app.setNotFoundHandler((request, reply) => send(reply, new ApiError(404, `Invalid URL (${request.method} ${request.url.split("?")[0]})`, "invalid_request_error", null, "unknown_url")));

  // Closing: new requests get 503, those in flight are told (the engine rejects them), and after
  // shutdownMs whatever connection is left (a client still sending its body) is dropped.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
    setTimeout(() => app.server.closeAllConnections(), opts.shutdownMs ?? 5000).unref();
    await engine.close();
  });
  app.addHook("onRequest", async (request, reply) => {
    if (closing) return send(reply, new ApiError(503, "the server is shutting down", "server_error", null, "service_unavailable", { connection: "close" }));
    for (const [k, v] of Object.entries(corsHeaders(request, opts.corsOrigins ?? []))) reply.header(k, v);
    if (request.method === "OPTIONS") return reply.code(204).header("allow", "GET, POST, OPTIONS").send();
    if (opts.apiKey !== undefined && request.url.startsWith("/v1/") && request.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(reply, new ApiError(401, "Incorrect API key provided: send it as 'Authorization: Bearer <key>' (the key given to npm run serve --api-key)", "invalid_request_error", null, "invalid_api_key"));
    }
  });
  // An OPTIONS request is answered by the hook above: this route only makes it reach the hook.
  app.options("/*", async (_request, reply) => reply.code(204).send());

  await app.register(fastifyStatic, { root: PAGE_DIR, prefix: "/", index: "index.html", dotfiles: "deny" });

  const created = Math.floor(Date.now() / 1000);
  // max_model_len as vLLM reports it: the page clamps max_tokens with it.
  const modelCard = { id: modelId, object: "model", created, owned_by: "minimind-ts", max_model_len: ready.config.maxPositionEmbeddings };
  app.get("/v1/models", async () => ({ object: "list", data: [modelCard] }));
  app.get<{ Params: { id: string } }>("/v1/models/:id", async (request) => {
    if (request.params.id !== modelId && !MODEL_ALIASES.includes(request.params.id)) throw modelNotFound(request.params.id, modelId);
    return { ...modelCard, id: request.params.id };
  });
  // The chat page's own routes: its settings, the tools it offers and runs, markdown-it.
  app.get("/v1/demo-tools", async () => ({ tools: DEMO_TOOLS, calculator: CALCULATOR_TOOL, history_rounds: opts.historyRounds ?? 0 }));
  app.post<{ Body: { name: string; arguments: string } }>(
    "/tools/execute",
    { schema: { body: { type: "object", required: ["name", "arguments"], properties: { name: { type: "string" }, arguments: { type: "string", maxLength: 4096 } } } } },
    async (request) => {
      let args: unknown;
      try {
        args = JSON.parse(request.body.arguments);
      } catch {
        args = null;
      }
      return { content: executeTool(request.body.name, args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {}) };
    },
  );
  // vLLM's /tokenize for a chat: how many tokens the prompt of these messages has.
  app.post<{ Body: ChatRequest }>("/tokenize", { schema: { body: chatRequestSchema } }, async (request) => ({
    count: chatPrompt(ctx, request.body).promptIds.length,
    max_model_len: ready.config.maxPositionEmbeddings,
  }));
  app.get("/vendor/markdown-it.min.js", async (_request, reply) => reply.type("text/javascript").send(readFileSync(MARKDOWN_IT)));
  // 503 while no generation process can serve, so that a load balancer's check tells the truth.
  app.get("/health", async (_request, reply) => {
    reply.code(engine.state === "ok" ? 200 : 503);
    return { status: engine.state, ...engine.load, ...engine.stats, restarts: engine.restarts };
  });

  /** A completion route: the whole reply, or server-sent events when `stream` (refusals decided before the first byte still get their status). */
  const completionRoute =
    <B extends { stream?: boolean | null }>(run: (body: B, sink: CompletionSink) => Promise<CompletionResult>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as B;
      const onAbort = (cancel: () => void) => {
        // The response's socket closing before we end it means the client left.
        reply.raw.on("close", () => {
          if (!reply.raw.writableEnded) cancel();
        });
      };
      if (!body.stream) {
        try {
          return (await run(body, { onAbort })).body;
        } catch (err) {
          throw engineRefusal(err) ?? err;
        }
      }
      let started = false;
      const write = (chunk: object) => {
        if (!started) {
          started = true;
          reply.hijack();
          // The headers set so far (CORS) go out with the stream's own.
          reply.raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" });
        }
        if (!reply.raw.writableEnded) reply.raw.write(`data: ${JSON.stringify(chunk)}\n\n`);
      };
      try {
        await run(body, { onAbort, event: write });
      } catch (err) {
        if (!started) throw engineRefusal(err) ?? err;
        write((engineRefusal(err) ?? new ApiError(500, `generation failed: ${err instanceof Error ? err.message : String(err)}`, "server_error")).body());
      }
      if (started && !reply.raw.writableEnded) reply.raw.end("data: [DONE]\n\n");
      return reply;
    };
  app.post<{ Body: ChatRequest }>("/v1/chat/completions", { schema: { body: chatRequestSchema } }, completionRoute<ChatRequest>((body, sink) => runCompletion(ctx, body, sink)));
  app.post<{ Body: TextCompletionRequest }>("/v1/completions", { schema: { body: textCompletionRequestSchema } }, completionRoute<TextCompletionRequest>((body, sink) => runTextCompletion(ctx, body, sink)));

  const choices: FunctionChoice[] = [
    ...ready.choices,
    { lesson: "lesson-4", name: "renderChat", source: template.source, why: template.why },
    { lesson: "lesson-27", name: "parseAssistantText", source: parser.source, why: parser.why },
  ];
  return { app, engine, modelId, tokenizer, ready, choices };
}
