// Delivers events the way the contract says the service does (D14): signed, a 2xx within
// 15 seconds acknowledges, anything else is retried with exponential backoff and jitter.
import type { PayinEvent } from "../../generated/event-types.ts";
import { DELIVERY_TIMEOUT_MS } from "../lib/contract-facts.ts";
import { signWebhook } from "../webhooks/sign.ts";

export interface DeliveryOptions {
  url: string;
  secret: string;
  /** Attempts per event, the first included. Default 4. */
  attempts?: number;
  /** Delay before the first retry; doubled each time, with up to 50% jitter. Default 1000 ms. */
  backoffMs?: number;
  /** How long an attempt may take. Default 15 s. */
  timeoutMs?: number;
  /** Told of every attempt, as it ends. */
  onAttempt?: (attempt: AttemptReport) => void;
}

export interface AttemptReport {
  event: PayinEvent;
  attempt: number;
  /** The receiver's status, or the error that stood in for one. */
  status: number | string;
  ok: boolean;
  ms: number;
}

export interface DeliveryReport {
  event: PayinEvent;
  delivered: boolean;
  attempts: AttemptReport[];
}

export async function deliver(events: readonly PayinEvent[], options: DeliveryOptions): Promise<DeliveryReport[]> {
  const reports: DeliveryReport[] = [];
  for (const event of events) reports.push(await deliverOne(event, options));
  return reports;
}

async function deliverOne(
  event: PayinEvent,
  { url, secret, attempts = 4, backoffMs = 1000, timeoutMs = DELIVERY_TIMEOUT_MS, onAttempt }: DeliveryOptions,
): Promise<DeliveryReport> {
  const payload = JSON.stringify(event);
  const report: DeliveryReport = { event, delivered: false, attempts: [] };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      const base = backoffMs * 2 ** (attempt - 2);
      await new Promise((resolve) => setTimeout(resolve, base + Math.random() * base * 0.5));
    }
    // Each attempt is signed anew (a fresh timestamp); the webhook-id stays the event's id.
    const headers = await signWebhook({ id: event.id, timestamp: new Date(), payload, secret });
    const started = performance.now();
    let status: number | string;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json", "User-Agent": "payin-trigger" },
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      status = response.status;
    } catch (error) {
      status = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : String((error as Error).cause ?? error);
    }
    const ok = typeof status === "number" && status >= 200 && status < 300;
    const attemptReport = { event, attempt, status, ok, ms: Math.round(performance.now() - started) };
    report.attempts.push(attemptReport);
    onAttempt?.(attemptReport);
    if (ok) {
      report.delivered = true;
      break;
    }
  }
  return report;
}
