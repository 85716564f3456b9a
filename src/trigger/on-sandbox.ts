// `payin-trigger` on a sandbox: real objects instead of made-up ids. It creates the customer and
// the session through the contract's operations (or takes a session that exists), acts as the
// customer and moves the account's clock through the control API, and lets the sandbox deliver
// the real events to the account's webhook URL; then it reports each delivery attempt of the
// session. A handler that fetches the transaction an event names finds it.
import type { EventFlowName } from "../../generated/event-flows.ts";
import { createPayinClient } from "../client.ts";
import { createSandboxClient } from "../sandbox-client.ts";
import { SESSION_LIFETIME_MS } from "../lib/contract-facts.ts";

type Step = "pay" | "fail" | "expire";

/** What each action does on the sandbox: a new session and a flow (each of the contract's), or a step on a session that exists. */
export const SANDBOX_ACTIONS = {
  success: { creates: true, does: "pay" },
  failure: { creates: true, does: "fail" },
  expiry: { creates: true, does: "expire" },
  pay: { creates: false, does: "pay" },
  fail: { creates: false, does: "fail" },
  expire: { creates: false, does: "expire" },
} as const satisfies Record<EventFlowName | Step, { creates: boolean; does: Step }>;
export type SandboxAction = keyof typeof SANDBOX_ACTIONS;

/** The fields `--override` sets. */
export interface Overrides {
  amount?: number;
  currency?: string;
  failure_reason?: string;
}

/** Parses `amount=10,currency=JPY,failure_reason=insufficient_funds`; throws naming what is wrong. */
export function parseOverrides(text: string): Overrides {
  const overrides: Overrides = {};
  for (const pair of text.split(",").filter(Boolean)) {
    const [key, value] = pair.split("=", 2) as [string, string | undefined];
    if (!value) throw new Error(`--override ${JSON.stringify(pair)} is not key=value`);
    if (key === "amount") {
      if (!(Number(value) > 0)) throw new Error(`--override amount must be a positive number, not ${JSON.stringify(value)}`);
      overrides.amount = Number(value);
    } else if (key === "currency" || key === "failure_reason") overrides[key] = value;
    else throw new Error(`--override knows amount, currency and failure_reason, not ${JSON.stringify(key)}`);
  }
  return overrides;
}

/** The sandbox refused a step: what it answered. */
export class SandboxRefused extends Error {
  override readonly name = "SandboxRefused";
}

export interface AttemptLine {
  event_id: string;
  event_type: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_status?: number;
  error?: string;
}

export interface SandboxTrigger {
  baseUrl: string;
  token: string;
  /** Registered as the account's webhook URL first; without it, the one registered is used. */
  url?: string;
  /** The session `pay`, `fail` and `expire` act on. */
  sessionId?: string;
  overrides?: Overrides;
  /** Told of each delivery attempt of the session, once, as the steps make them. */
  onAttempt?: (attempt: AttemptLine) => void;
}

/** Runs the action and resolves to the session's events, each acknowledged or not. */
export async function triggerOnSandbox(
  action: SandboxAction,
  { baseUrl, token, url, sessionId, overrides = {}, onAttempt }: SandboxTrigger,
): Promise<{ sessionId: string; events: Array<{ id: string; type: string; acknowledged: boolean }> }> {
  const payin = createPayinClient({ baseUrl, token });
  const sandbox = createSandboxClient({ baseUrl, token });
  const refused = (step: string, answer: { error?: unknown; response: Response }) => {
    const problem = answer.error as { detail?: string } | undefined;
    return new SandboxRefused(`${step} was answered ${answer.response.status}${problem?.detail ? `: ${problem.detail}` : ""}`);
  };

  if (url) {
    const registered = await payin.POST("/webhooks", { body: { url } });
    if (registered.error) throw refused(`registering ${url}`, registered);
  } else if ((await payin.GET("/webhooks")).response.status === 404)
    throw new SandboxRefused("the account has no webhook URL: give --url, the endpoint to deliver to");

  let session = sessionId;
  if (SANDBOX_ACTIONS[action].creates) {
    const customer = await payin.POST("/api/v1/send/counterparties/", {
      body: {
        type: "INDIVIDUAL",
        payment_rail: "PAYIN",
        first_name: "Lucía",
        last_name: "García",
        email: `trigger.${crypto.randomUUID()}@example.com`,
        phone_number: "+34612345678",
      },
    });
    if (customer.error) throw refused("create counterparty", customer);
    const created = await payin.POST("/api/v1/earn/payment-sessions/", {
      body: {
        amount: overrides.amount ?? 49.99,
        currency: overrides.currency ?? "EUR",
        counterparty_id: customer.data.id,
        redirect_url: "https://shop.example.com/thanks",
      },
    });
    if (created.error) throw refused("create payment session", created);
    session = created.data.id;
  }
  if (!session) throw new SandboxRefused(`${action} needs --session, the session to act on`);

  const seen = new Set<string>();
  const report = async () => {
    // The session's whole log, page after page.
    const attempts = [];
    let cursor: string | undefined;
    do {
      const { data } = await sandbox.GET("/_sandbox/v1/deliveries", { params: { query: { session_id: session, cursor } } });
      attempts.push(...(data?.data ?? []));
      cursor = data?.next_cursor ?? undefined;
    } while (cursor !== undefined);
    for (const attempt of attempts)
      if (!seen.has(`${attempt.event_id} ${attempt.attempt}`)) {
        seen.add(`${attempt.event_id} ${attempt.attempt}`);
        onAttempt?.(attempt);
      }
    return attempts;
  };
  // Each step, then a second on the account's clock: the deliveries it made due are made before the report.
  const advance = async (seconds: number) => {
    const moved = await sandbox.POST("/_sandbox/v1/clock/advance", { body: { seconds } });
    if (moved.error) throw refused("advance the clock", moved);
    await report();
  };

  await advance(1);
  const does = SANDBOX_ACTIONS[action].does;
  if (does !== "expire") {
    const simulated = await sandbox.POST("/_sandbox/v1/payment-sessions/{session_id}/simulate", {
      params: { path: { session_id: session } },
      body:
        does === "pay" ? { outcome: "pay" } : { outcome: "fail", failure_reason: (overrides.failure_reason ?? "card_declined") as never },
    });
    if (simulated.error) throw refused(`${does} session ${session}`, simulated);
    await advance(1);
  }
  // An hour and a second: an unpaid session expires, and a payment settles (the sandbox's delay,
  // 60 s unless it was started with another, stays within the hour).
  await advance(SESSION_LIFETIME_MS / 1000 + 1);

  const attempts = await report();
  const events = [...new Map(attempts.map((a) => [a.event_id, a.event_type])).entries()].map(([id, type]) => ({
    id,
    type,
    acknowledged: attempts.some((a) => a.event_id === id && a.status === "succeeded"),
  }));
  return { sessionId: session, events };
}
