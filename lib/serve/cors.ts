/**
 * CORS for the model server: which web pages may call the API from another origin. The chat page
 * served at `/` shares the server's origin, as does any page whose Origin equals the Host the
 * request was sent to; others must be named (`--cors-origin`), or "*" allows any page.
 */
import type { FastifyRequest } from "fastify";

/** The CORS response headers for `request`: none unless it comes from a page of an allowed origin. */
export function corsHeaders(request: FastifyRequest, allowed: readonly string[]): Record<string, string> {
  const origin = request.headers.origin;
  if (!origin) return {};
  const own = origin === `http://${request.headers.host}` || origin === `https://${request.headers.host}`;
  if (!own && !allowed.includes("*") && !allowed.includes(origin)) return {};
  const headers: Record<string, string> = { "access-control-allow-origin": origin, vary: "Origin" };
  if (request.method === "OPTIONS") {
    headers["access-control-allow-methods"] = "GET, POST, OPTIONS";
    headers["access-control-allow-headers"] = String(request.headers["access-control-request-headers"] ?? "authorization, content-type");
    headers["access-control-max-age"] = "600";
  }
  return headers;
}
