// Requests from a browser page of another origin: the docs' try-it, served beside the sandbox on
// another port, or a merchant's own front end in development. Every account is reached with a
// bearer token, never a cookie, so any origin may call the API: the answer is readable by the
// page, and the browser sends no credentials of its own. The dashboard (cookies) is not here.
import type { IncomingMessage } from "node:http";

/** On every answer of the API to a request that carries an Origin. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Retry-After, Allow",
};

/** A browser asking whether it may send a request: OPTIONS with an Origin and the method it wants. */
export const isPreflight = (req: IncomingMessage) =>
  req.method === "OPTIONS" && req.headers.origin !== undefined && req.headers["access-control-request-method"] !== undefined;

/** The answer to a preflight of a path that takes `methods`. */
export const preflightHeaders = (methods: readonly string[]): Record<string, string> => ({
  ...CORS_HEADERS,
  "Access-Control-Allow-Methods": methods.join(", "),
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
  "Access-Control-Max-Age": "600",
});
