import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "../generated/openapi.ts";

/** A bearer token, or a function that returns the current one (for tokens that rotate). */
export type TokenSource = string | (() => string | Promise<string>);

export interface PayinClientOptions {
  /** Base URL of the service (or of the mock), such as `https://api.payin.example.com`. */
  baseUrl: string;
  /** The merchant's bearer token, sent as `Authorization: Bearer <token>` on every request. */
  token: TokenSource;
  /** The fetch to use; defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

/** An openapi-fetch client whose paths, parameters, bodies and responses are the contract's. */
export type PayinClient = Client<paths>;

/**
 * Creates a typed client of the Payin Acceptance Service.
 *
 * Create calls accept an idempotency key as a typed header parameter:
 * `client.POST("/api/v1/earn/payment-sessions/", { body, params: { header: { "Idempotency-Key": key } } })`.
 */
export function createPayinClient({ baseUrl, token, fetch }: PayinClientOptions): PayinClient {
  const client = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
  client.use(bearerAuth(token));
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
