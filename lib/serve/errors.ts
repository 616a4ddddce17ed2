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

/** A Fastify/ajv validation error as a 400 that names the field. */
export function validationError(v: { instancePath?: string; keyword?: string; message?: string; params?: Record<string, unknown> }): ApiError {
  const path = (v.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
  const missing = v.keyword === "required" ? String(v.params?.missingProperty ?? "") : "";
  const extra = v.keyword === "additionalProperties" ? String(v.params?.additionalProperty ?? "") : "";
  const field = [path, missing || extra].filter((p) => p !== "").join(".") || "body";
  const what = missing ? "is required" : extra ? "is not a known field" : (v.message ?? "is invalid");
  return new ApiError(400, `Invalid request: '${field}' ${what}`, "invalid_request_error", field, missing ? "missing_required_parameter" : "invalid_value");
}

/** 404 for a model this server does not serve, naming the one it does. */
export function modelNotFound(asked: string, served: string): ApiError {
  return new ApiError(404, `The model '${asked}' does not exist: this server serves '${served}' (GET /v1/models)`, "invalid_request_error", "model", "model_not_found");
}
