import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "../generated/openapi.ts";
import { idempotencyKeys, resilientFetch, type ResilienceOptions } from "./retry.ts";

/** A bearer token, or a function that returns the current one (for tokens that rotate). */
export type TokenSource = string | (() => string | Promise<string>);

export interface PayinClientOptions extends ResilienceOptions {
  /** Base URL of the service (or of the mock), such as `https://api.payin.example.com`. */
  baseUrl: string;
  /** The merchant's bearer token, sent as `Authorization: Bearer <token>` on every request. */
  token: TokenSource;
  /** The fetch to use; defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** An `Idempotency-Key` on every POST that has none, the same on its retries. Default true. */
  idempotencyKeys?: boolean;
}

/** An openapi-fetch client whose paths, parameters, bodies and responses are the contract's. */
export type PayinClient = Client<paths>;

/**
 * Creates a typed client of the Payin Acceptance Service. Each attempt times out after 30 s;
 * network errors, timeouts, `429` and `503` are retried twice with backoff (Retry-After
 * honoured); every POST carries an `Idempotency-Key`, the same on its retries, so a retried
 * create never makes two objects. `timeoutMs`, `retry` and `idempotencyKeys` tune or turn each off; `clock` is
 * what the timeouts and waits are measured on (a test's own, to see them without waiting).
 *
 * A create call may give its own key as a typed header parameter:
 * `client.POST("/api/v1/earn/payment-sessions/", { body, params: { header: { "Idempotency-Key": key } } })`.
 */
export function createPayinClient({
  baseUrl,
  token,
  fetch = globalThis.fetch,
  idempotencyKeys: keys = true,
  ...resilience
}: PayinClientOptions): PayinClient {
  const client = createClient<paths>({ baseUrl, fetch: resilientFetch(fetch, resilience) });
  client.use(bearerAuth(token));
  if (keys) client.use(idempotencyKeys());
  return client;
}

/** Sends `Authorization: Bearer <token>` on every request, asking a token function each time. */
export function bearerAuth(token: TokenSource): Middleware {
  return {
    async onRequest({ request }) {
      const value = typeof token === "function" ? await token() : token;
      request.headers.set("Authorization", `Bearer ${value}`);
      return request;
    },
  };
}
