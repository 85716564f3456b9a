// A typed client of the sandbox's control API (`/_sandbox/v1/`, generated/sandbox.yaml): what a
// merchant's integration test calls to act as the customer, move the clock, read the
// deliveries and requests, and arm faults, with the same token as the contract's operations.
import createClient, { type Client } from "openapi-fetch";
import type { paths as SandboxPaths } from "../generated/sandbox.ts";
import { bearerAuth, type PayinClientOptions } from "./client.ts";
import { resilientFetch } from "./retry.ts";

export type { SandboxPaths };

/** An openapi-fetch client whose paths, parameters, bodies and responses are the sandbox control API's. */
export type SandboxClient = Client<SandboxPaths>;

/**
 * Creates a typed client of a running sandbox's control API, timing out and retrying as the
 * service's client does (its operations take no Idempotency-Key):
 * `sandbox.POST("/_sandbox/v1/payment-sessions/{session_id}/simulate", { params: { path: { session_id } }, body: { outcome: "pay" } })`.
 */
export function createSandboxClient({
  baseUrl,
  token,
  fetch = globalThis.fetch,
  ...resilience
}: Omit<PayinClientOptions, "idempotencyKeys">): SandboxClient {
  const client = createClient<SandboxPaths>({ baseUrl, fetch: resilientFetch(fetch, resilience) });
  client.use(bearerAuth(token));
  return client;
}
