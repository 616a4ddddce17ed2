/**
 * The JSON schema of `POST /v1/chat/completions` (the subset of OpenAI's request this server
 * honours): Fastify validates every body against it with ajv before a handler runs.
 */
// Union types rather than anyOf, so that a violation is reported for the branch the value's type
// selects ("array too long"), not for the first branch ("must be string").
const text = { type: ["string", "null", "array"], items: { type: "object", required: ["type"], properties: { type: { type: "string" }, text: { type: "string" } } } };

export const chatRequestSchema = {
  type: "object",
  required: ["model", "messages"],
  properties: {
    model: { type: "string", minLength: 1 },
    messages: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["role"],
        properties: {
          role: { enum: ["system", "developer", "user", "assistant", "tool"] },
          content: text,
          reasoning_content: { type: ["string", "null"] },
          name: { type: "string" },
          tool_call_id: { type: "string" },
          tool_calls: {
            type: ["array", "null"],
            items: {
              type: "object",
              required: ["function"],
              properties: { id: { type: "string" }, type: { type: "string" }, function: { type: "object", required: ["name"], properties: { name: { type: "string" }, arguments: {} } } },
            },
          },
        },
      },
    },
    temperature: { type: ["number", "null"], minimum: 0, maximum: 2 },
    top_p: { type: ["number", "null"], exclusiveMinimum: 0, maximum: 1 },
    max_tokens: { type: ["integer", "null"], minimum: 1 },
    max_completion_tokens: { type: ["integer", "null"], minimum: 1 },
    // OpenAI allows up to 4 stop strings.
    stop: { type: ["string", "array", "null"], minLength: 1, maxItems: 4, items: { type: "string", minLength: 1 } },
    stream: { type: ["boolean", "null"] },
    stream_options: { type: ["object", "null"], properties: { include_usage: { type: "boolean" } } },
    tools: {
      type: ["array", "null"],
      items: {
        type: "object",
        required: ["type", "function"],
        properties: { type: { const: "function" }, function: { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1 }, description: { type: "string" }, parameters: { type: "object" } } } },
      },
    },
    // "none" | "auto" | "required" | {type: "function", function: {name}}: checked in completion.ts.
    tool_choice: { type: ["string", "object", "null"] },
    response_format: { type: ["object", "null"], required: ["type"], properties: { type: { enum: ["text", "json_object", "json_schema"] } } },
    logprobs: { type: ["boolean", "null"] },
    top_logprobs: { type: ["integer", "null"], minimum: 0, maximum: 20 },
    n: { type: ["integer", "null"], minimum: 1, maximum: 1 },
    seed: { type: ["integer", "null"] },
    user: { type: "string" },
    open_thinking: { type: "boolean" },
    chat_template_kwargs: { type: ["object", "null"], properties: { open_thinking: { type: "boolean" }, enable_thinking: { type: "boolean" } } },
  },
} as const;

/** A request that passed the schema. */
export interface ChatRequest {
  model: string;
  messages: Array<{
    role: "system" | "developer" | "user" | "assistant" | "tool";
    content?: string | null | Array<{ type: string; text?: string }>;
    reasoning_content?: string | null;
    tool_calls?: Array<{ id?: string; type?: string; function: { name: string; arguments?: unknown } }> | null;
    tool_call_id?: string;
    name?: string;
  }>;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  tools?: Array<{ type: "function"; function: { name: string; description?: string; parameters?: object } }> | null;
  tool_choice?: string | { type?: string; function?: { name?: string } } | null;
  response_format?: { type: "text" | "json_object" | "json_schema" } | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  n?: number | null;
  seed?: number | null;
  open_thinking?: boolean;
  chat_template_kwargs?: { open_thinking?: boolean; enable_thinking?: boolean } | null;
}

/** The JSON schema of `POST /v1/completions` (OpenAI's legacy text completion, the subset served). */
export const textCompletionRequestSchema = {
  type: "object",
  required: ["model", "prompt"],
  properties: {
    model: { type: "string", minLength: 1 },
    prompt: { type: ["string", "array"], minItems: 1, items: { type: "string" } },
    max_tokens: { type: ["integer", "null"], minimum: 1 },
    temperature: chatRequestSchema.properties.temperature,
    top_p: chatRequestSchema.properties.top_p,
    stop: chatRequestSchema.properties.stop,
    stream: { type: ["boolean", "null"] },
    stream_options: chatRequestSchema.properties.stream_options,
    logprobs: { type: ["integer", "null"], minimum: 0, maximum: 5 },
    echo: { type: ["boolean", "null"] },
    suffix: { type: ["string", "null"] },
    n: chatRequestSchema.properties.n,
    best_of: { type: ["integer", "null"], minimum: 1, maximum: 1 },
    seed: chatRequestSchema.properties.seed,
    user: { type: "string" },
  },
} as const;

/** A request that passed textCompletionRequestSchema. */
export interface TextCompletionRequest {
  model: string;
  prompt: string | string[];
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  logprobs?: number | null;
  echo?: boolean | null;
  suffix?: string | null;
  seed?: number | null;
}
