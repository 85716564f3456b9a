// @ts-nocheck
import { inject } from "vitest";
import { createPayinClient } from "../../../src/index.ts";
import { checkResponse, type CheckedResponse } from "./response-check.ts";

export const baseUrl = inject("payinBaseUrl");
/** "mock" when the suite started the mock itself; "server" when PAYIN_BASE_URL names one. */
export const target = inject("payinTarget");
/** A real server cannot be told which response to give; only the mock (Prism's `Prefer`) can. */
export const againstServer = target === "server";
export const token = process.env.PAYIN_TOKEN ?? "contract-test-token";

/** Every response the suite has seen, judged against the contract. */
export const seen: CheckedResponse[] = [];

/** A fetch that judges every response it returns, so each test checks the contract as it goes. */
export async function judgedFetch(request: Request): Promise<Response> {
  const method = request.method;
  const response = await fetch(request);
  seen.push(await checkResponse(method, request.url, response));
  return response;
}

export const client = createPayinClient({ baseUrl, token, fetch: judgedFetch });

/** A raw request, for what the typed client would not send (bad tokens, broken bodies). */
export async function send(
  method: string,
  path: string,
  { body, headers = {}, auth = true }: { body?: string | object; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<CheckedResponse> {
  const request = new Request(baseUrl + path, {
    method,
    headers: {
      ...(auth ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const response = await fetch(request);
  const checked = await checkResponse(method, request.url, response);
  seen.push(checked);
  return checked;
}

/** The last judged response; tests assert it kept the contract. */
export const last = () => seen[seen.length - 1]!;

/** A counterparty body unique to this run, so a real server's uniqueness rule does not interfere. */
export function newCounterparty() {
  const n = `${Date.now()}${Math.floor(Math.random() * 1e6)}`.slice(-12);
  return {
    type: "INDIVIDUAL" as const,
    payment_rail: "PAYIN" as const,
    first_name: "Ana",
    last_name: "Contract",
    email: `ana.contract+${n}@example.com`,
    phone_number: `+349${n.slice(-9)}`,
  };
}
