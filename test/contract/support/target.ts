import { afterAll, inject } from "vitest";
import { createPayinClient } from "../../../src/index.ts";
import { checkResponse, type CheckedResponse } from "./response-check.ts";

// The mutation run (vitest.mutation.config.ts) starts a sandbox in each test file's own worker,
// where Stryker switches its mutants on; a global setup's sandbox lives where they never reach.
const inWorker = process.env.PAYIN_SANDBOX_IN_WORKER === "1" ? await startSandboxHere() : undefined;

async function startSandboxHere() {
  const { startSandbox } = await import("../../../src/sandbox/index.ts");
  const sandbox = await startSandbox({ port: 0 });
  afterAll(() => sandbox.close());
  return sandbox;
}

export const baseUrl = inWorker?.url ?? inject("payinBaseUrl");
/** "mock" or "sandbox" when the suite started it itself; "server" when PAYIN_BASE_URL names one. */
export const target = inWorker ? "sandbox" : inject("payinTarget");
/** Only the mock can be told which response to give (Prism's `Prefer`); it remembers nothing. */
export const onMock = target === "mock";
/** The sandbox and a real server keep what they are sent. */
export const stateful = !onMock;
/** Only the sandbox has the control API, and makes an account for any new token. */
export const onSandbox = target === "sandbox";
/** One account per test file on the sandbox, so files running at once never share state. */
export const token = process.env.PAYIN_TOKEN ?? (onSandbox ? newToken() : "contract-test-token");

/**
 * A webhook URL to register. On the mock and a sandbox it is on loopback, where nothing listens
 * on port 1, so the sandbox's deliveries are refused at once and never leave the machine; a
 * real server delivers from elsewhere and may refuse loopback URLs, so it gets a shop's.
 */
export const webhookUrl = (path: string) => (target === "server" ? `https://shop.example.com${path}` : `https://127.0.0.1:1${path}`);

/** A token no one has used: a new, empty account on the sandbox. */
export function newToken() {
  return `contract-${crypto.randomUUID()}`;
}

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

/** A client of another account (sandbox only). */
export const clientFor = (accountToken: string) => createPayinClient({ baseUrl, token: accountToken, fetch: judgedFetch });

/** A raw request, for what the typed client would not send (bad tokens, broken bodies). */
export async function send(
  method: string,
  path: string,
  {
    body,
    headers = {},
    auth = true,
    as = token,
  }: { body?: string | Uint8Array | object; headers?: Record<string, string>; auth?: boolean; as?: string } = {},
): Promise<CheckedResponse> {
  const request = new Request(baseUrl + path, {
    method,
    headers: {
      ...(auth ? { Authorization: `Bearer ${as}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...headers,
    },
    ...(body !== undefined
      ? { body: typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body) }
      : {}),
  });
  const response = await fetch(request);
  const checked = await checkResponse(method, request.url, response);
  seen.push(checked);
  return checked;
}

/** The last judged response; tests assert it kept the contract. */
export const last = () => seen[seen.length - 1]!;
