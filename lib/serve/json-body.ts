/**
 * The request body parser of the model server: JSON text → value, with the nesting depth bounded
 * before anything recursive sees it. A body nested thousands deep (in `tools[].function.parameters`
 * or a tool call's `arguments`) would otherwise overflow the stack of whatever walks it next
 * (validation, the chat template's JSON.stringify) and answer 500. `JSON.parse` keeps a
 * `__proto__` key as an ordinary own property, so it is data like any other key.
 */
import { ApiError } from "./errors.js";

/** Deepest nesting of arrays and objects a request may have (OpenAI's own schemas go a few levels deep). */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `[`/`{` in JSON text (brackets inside strings do not count), without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Parses a request body: 400 for an empty body, nesting deeper than MAX_JSON_DEPTH, or text that is not JSON. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") throw new ApiError(400, "The request body is empty: send the request as JSON", "invalid_request_error", null, "invalid_json");
  const depth = jsonDepth(text);
  if (depth > MAX_JSON_DEPTH) throw new ApiError(400, `The request body nests arrays and objects ${depth} levels deep: at most ${MAX_JSON_DEPTH} are accepted`, "invalid_request_error", null, "invalid_json");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, `The request body is not valid JSON (${(err as Error).message})`, "invalid_request_error", null, "invalid_json");
  }
}
