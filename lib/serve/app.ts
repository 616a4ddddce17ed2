/**
 * The OpenAI-compatible model server on Fastify: `GET /v1/models`, `POST /v1/chat/completions`
 * (whole or streamed as server-sent events), and the chat page at `/`. Request bodies are
 * validated against a JSON schema (ajv, built into Fastify); every refusal has OpenAI's error
 * shape and status, and no request can stop the server.
 */
import { basename, extname } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import fastifyStatic from "@fastify/static";
import { resolveFunction, type FunctionChoice } from "../resolver.js";
import { runCompletion, type CompletionContext, type ParseAssistantText, type RenderChat } from "./completion.js";
import { GenerationEngine, QueueFullError, type Ready } from "./engine.js";
import { ApiError, validationError } from "./errors.js";
import { DEMO_TOOLS } from "./demo.js";
import { chatRequestSchema, type ChatRequest } from "./schema.js";
import { tokenizerFor, type ChatTokenizer } from "./tokenizer.js";

const PAGE_DIR = fileURLToPath(new URL("./page/", import.meta.url));

export interface ServerOptions {
  checkpoint: string;
  useReference?: string[];
  /** Generations that may wait behind the running one (default 8); more get 429. */
  maxQueue?: number;
  /** Largest request body in bytes (default 256 KiB); larger gets 413. */
  bodyLimit?: number;
  /** Kill and restart generation when no token comes for this long (default 60 s). */
  stallMs?: number;
}

export interface ModelServer {
  app: FastifyInstance;
  engine: GenerationEngine;
  modelId: string;
  tokenizer: ChatTokenizer;
  ready: Ready;
  /** Whose functions this server runs: the model's pieces, the template and the reply parser. */
  choices: FunctionChoice[];
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
  const engine = new GenerationEngine({ checkpoint: opts.checkpoint, useReference, maxQueue: opts.maxQueue, stallMs: opts.stallMs });
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
    contextLength: ready.config.maxPositionEmbeddings,
    nextSerial: () => ++serial,
  };

  const app = Fastify({
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    logger: false,
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ApiError) return send(reply, error);
    if (error.validation && error.validation.length > 0) return send(reply, validationError(error.validation[0] as Parameters<typeof validationError>[0]));
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return send(reply, new ApiError(413, `Request body too large: the limit is ${app.initialConfig.bodyLimit} bytes`, "invalid_request_error", null, "request_too_large"));
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return send(reply, new ApiError(415, "Send the request body as JSON (Content-Type: application/json)", "invalid_request_error", null, "unsupported_media_type"));
    if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" || error instanceof SyntaxError || error.statusCode === 400) {
      return send(reply, new ApiError(400, `The request body is not valid JSON (${error.message})`, "invalid_request_error", null, "invalid_json"));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return send(reply, new ApiError(status, status === 500 ? `The server failed: ${error.message}` : error.message, status === 500 ? "server_error" : "invalid_request_error"));
  });
  app.setNotFoundHandler((request, reply) => send(reply, new ApiError(404, `Unknown route: ${request.method} ${request.url.split("?")[0]}`, "invalid_request_error", null, "unknown_url")));

  await app.register(fastifyStatic, { root: PAGE_DIR, prefix: "/", index: "index.html", dotfiles: "deny" });

  app.get("/v1/models", async () => ({
    object: "list",
    data: [{ id: modelId, object: "model", created: Math.floor(Date.now() / 1000), owned_by: "minimind-ts" }],
  }));
  app.get("/v1/demo-tools", async () => ({ tools: DEMO_TOOLS }));
  app.get("/health", async () => ({ status: "ok", ...engine.load, ...engine.stats, restarts: engine.restarts }));

  app.post<{ Body: ChatRequest }>("/v1/chat/completions", { schema: { body: chatRequestSchema } }, async (request, reply) => {
    const body = request.body;
    const onAbort = (cancel: () => void) => {
      // The response's socket closing before we end it means the client left.
      reply.raw.on("close", () => {
        if (!reply.raw.writableEnded) cancel();
      });
    };
    if (!body.stream) {
      try {
        const result = await runCompletion(ctx, body, { onAbort });
        return result.body;
      } catch (err) {
        if (err instanceof QueueFullError) throw new ApiError(429, err.message, "rate_limit_error", null, "rate_limit_exceeded", { "retry-after": String(err.retryAfterSeconds) });
        throw err;
      }
    }
    // Streaming: refusals are decided before the first byte, so they still get a status code.
    let started = false;
    const write = (chunk: object) => {
      if (!started) {
        started = true;
        reply.hijack();
        reply.raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" });
      }
      if (!reply.raw.writableEnded) reply.raw.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    try {
      await runCompletion(ctx, body, { onAbort, event: write });
    } catch (err) {
      if (!started) {
        if (err instanceof QueueFullError) throw new ApiError(429, err.message, "rate_limit_error", null, "rate_limit_exceeded", { "retry-after": String(err.retryAfterSeconds) });
        throw err;
      }
      write(new ApiError(500, `generation failed: ${err instanceof Error ? err.message : String(err)}`, "server_error").body());
    }
    if (started && !reply.raw.writableEnded) reply.raw.end("data: [DONE]\n\n");
    return reply;
  });

  const choices: FunctionChoice[] = [
    ...ready.choices,
    { lesson: "lesson-4", name: "renderChat", source: template.source, why: template.why },
    { lesson: "lesson-27", name: "parseAssistantText", source: parser.source, why: parser.why },
  ];
  app.addHook("onClose", async () => engine.close());
  return { app, engine, modelId, tokenizer, ready, choices };
}
