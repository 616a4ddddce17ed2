/** Errors in OpenAI's shape: `{ error: { message, type, param, code } }` with the matching status. */

export interface ApiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** One ajv error as Fastify reports it (ajv runs with `verbose`, so `data` is the offending value). */
export interface SchemaViolation {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

/** A JSON value's kind as OpenAI's messages name it: "a string", "an integer", "null", … */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a decimal";
  if (typeof value === "object") return "an object";
  return typeof value === "boolean" ? "a boolean" : `a ${typeof value}`;
}

const TYPE_NAMES: Record<string, string> = { string: "a string", integer: "an integer", number: "a number", boolean: "a boolean", array: "an array", object: "an object", null: "null" };

/**
 * A schema violation as OpenAI words it (never ajv's "must be integer,null"), a 400 whose `param`
 * names the field: "Missing required parameter: 'messages'.", "Invalid type for 'max_tokens':
 * expected an integer, but got a string instead.", "Invalid 'stop': array too long. …".
 */
export function validationError(v: SchemaViolation): ApiError {
  const path = (v.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
  const p = v.params ?? {};
  const at = (extra: string) => [path, extra].filter((x) => x !== "").join(".");
  const bad = (field: string, message: string, code = "invalid_value") => new ApiError(400, message, "invalid_request_error", field || null, code);
  const field = path || "body";
  switch (v.keyword) {
    case "required":
      return bad(at(String(p.missingProperty)), `Missing required parameter: '${at(String(p.missingProperty))}'.`, "missing_required_parameter");
    case "additionalProperties":
      return bad(at(String(p.additionalProperty)), `Unrecognized request argument supplied: '${at(String(p.additionalProperty))}'.`, "unknown_parameter");
    case "type": {
      const wanted = (Array.isArray(p.type) ? p.type : String(p.type).split(",")).map((t) => TYPE_NAMES[t] ?? t);
      return bad(field, `Invalid type for '${field}': expected ${wanted.join(" or ")}, but got ${kind(v.data)} instead.`, "invalid_type");
    }
    case "enum":
    case "const": {
      const allowed = ((p.allowedValues as unknown[] | undefined) ?? [p.allowedValue]).map((x) => `'${String(x)}'`).join(", ");
      return bad(field, `Invalid value for '${field}': ${JSON.stringify(v.data)}. Supported values are: ${allowed}.`);
    }
    case "minimum":
    case "exclusiveMinimum":
      return bad(field, `Invalid '${field}': ${kind(v.data).replace(/^an? /, "")} below minimum value. Expected a value ${v.keyword === "minimum" ? ">=" : ">"} ${String(p.limit)}, but got ${String(v.data)} instead.`);
    case "maximum":
    case "exclusiveMaximum":
      return bad(field, `Invalid '${field}': ${kind(v.data).replace(/^an? /, "")} above maximum value. Expected a value ${v.keyword === "maximum" ? "<=" : "<"} ${String(p.limit)}, but got ${String(v.data)} instead.`);
    case "minLength":
      return bad(field, `Invalid '${field}': string too short. Expected a string with minimum length ${String(p.limit)}, but got an empty string instead.`);
    case "minItems":
      return bad(field, `Invalid '${field}': empty array. Expected an array with minimum length ${String(p.limit)}, but got an empty array instead.`);
    case "maxItems":
      return bad(field, `Invalid '${field}': array too long. Expected an array with maximum length ${String(p.limit)}, but got an array with length ${Array.isArray(v.data) ? v.data.length : "?"} instead.`);
    default:
      return bad(field, `Invalid value for '${field}'.`);
  }
}

/** 404 for a model this server does not serve, naming the one it does. */
export function modelNotFound(asked: string, served: string): ApiError {
  return new ApiError(404, `The model '${asked}' does not exist: this server serves '${served}' (GET /v1/models)`, "invalid_request_error", "model", "model_not_found");
}
