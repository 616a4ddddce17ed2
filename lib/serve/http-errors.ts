/**
 * Refusals that happen below the routes, answered in OpenAI's error shape like every other one:
 * HTTP-level client errors that Node reports before Fastify has a request (a request that took too
 * long to arrive: 408; headers too large: 431; a malformed Content-Length or request line: 400),
 * and Fastify's own framework errors (a URL it cannot decode).
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "./errors.js";

/** The OpenAI-shaped refusal for a Node `clientError` (its `code`: ERR_HTTP_REQUEST_TIMEOUT, HPE_HEADER_OVERFLOW, HPE_*). */
export function clientErrorAsApiError(err: { code?: string; message?: string }): ApiError {
  switch (err.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(408, "The request took too long to arrive: send the headers and the whole body promptly", "invalid_request_error", null, "request_timeout");
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(431, "The request's headers are too large", "invalid_request_error", null, "headers_too_large");
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return new ApiError(400, "The request's Content-Length header is not valid", "invalid_request_error", null, "invalid_content_length");
    default:
      return new ApiError(400, `The request is not valid HTTP (${err.code ?? err.message ?? "malformed"})`, "invalid_request_error", null, "bad_request");
  }
}

/**
 * Fastify's `clientErrorHandler`: writes the refusal straight to the socket (there is no request
 * to reply to) and closes it. A socket that is already gone, or busy with a response, is destroyed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const apiError = clientErrorAsApiError(err);
  const body = JSON.stringify(apiError.body());
  socket.end(
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's `frameworkErrors` (FST_ERR_BAD_URL and the like) as OpenAI-shaped 400s. */
export function frameworkErrorAsApiError(err: { code?: string; message: string }): ApiError {
  if (err.code === "FST_ERR_BAD_URL") return new ApiError(400, `The request's URL is not valid (${err.message})`, "invalid_request_error", null, "invalid_url");
  return new ApiError(400, err.message, "invalid_request_error", null, "bad_request");
}
