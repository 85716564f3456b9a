// A merchant's webhook endpoint on loopback for the tests: the conformance kit's receiver, which
// keeps every attempt as it came and answers what `answer` says, and, given the signing secret,
// verifies each delivery it would accept with verifyWebhook, answering the rejection's status
// when it fails.
import { startReceiver as startKitReceiver, type Delivery } from "../../src/conformance/receiver.ts";
import { verifyWebhook, WebhookVerificationError, type PayinEvent } from "../../src/webhooks/index.ts";

export interface ReceivedAttempt extends Delivery {
  id: string;
  type: string;
}

export interface Receiver {
  url: string;
  /** Every attempt answered, in order. */
  readonly attempts: ReceivedAttempt[];
  /** Every attempt as it arrived, answered yet or not (one that hangs), in order. */
  readonly arrivals: Array<{ id: string; type: string }>;
  /** With a secret: the events that verified, in arrival order (a retried event once per accepted attempt). */
  events: PayinEvent[];
  /** The status for the next attempt (`n` counts from 1), at once or once it resolves; "hang" never answers. */
  answer: (attempt: { id: string; type: string; n: number }) => number | "hang" | Promise<number>;
  /** Resolves once `count` attempts answered 2xx. */
  delivered(count: number, timeoutMs?: number): Promise<ReceivedAttempt[]>;
  close(): Promise<void>;
}

const typeOf = (body: string): string => {
  try {
    return String((JSON.parse(body) as { type?: unknown }).type);
  } catch {
    return "undefined";
  }
};

export async function startReceiver({ secret }: { secret?: string } = {}): Promise<Receiver> {
  const kit = await startKitReceiver();
  const events: PayinEvent[] = [];
  const arrivals: Array<{ id: string; type: string }> = [];
  const attempt = (d: Delivery): ReceivedAttempt => ({ ...d, id: String(d.headers["webhook-id"]), type: typeOf(d.body) });
  const ok = () => kit.deliveries.filter((d) => d.status >= 200 && d.status < 300).map(attempt);
  const receiver: Receiver = {
    url: kit.url,
    get attempts() {
      return kit.deliveries.map(attempt);
    },
    events,
    arrivals,
    answer: () => 204,
    delivered: (count, timeoutMs = 10_000) =>
      kit
        .until(() => (ok().length >= count ? ok() : undefined), timeoutMs)
        .catch(() => {
          throw new Error(
            `${ok().length} of ${count} deliveries arrived: ${JSON.stringify(receiver.attempts.map((a) => [a.type, a.status]))}`,
          );
        }),
    close: () => kit.close(),
  };
  kit.answer = async (arrival) => {
    const arrived = { id: String(arrival.headers["webhook-id"]), type: typeOf(arrival.body) };
    arrivals.push(arrived);
    const status = await receiver.answer({ ...arrived, n: kit.deliveries.length + 1 });
    if (status === "hang" || secret === undefined || status < 200 || status > 299) return status;
    try {
      events.push(await verifyWebhook(arrival.body, arrival.headers, secret));
      return status;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return error.toProblem().status;
    }
  };
  return receiver;
}
