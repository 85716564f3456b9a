// The merchant's webhook endpoint under test, as the receiver checks reach it: each delivery is
// POSTed as the service posts one (JSON, the three Standard Webhooks headers), and what came
// back, or that nothing came in time, is kept with what was sent, for a failure to show both.
// What came is its status, and its body only once the URL has answered as a webhook endpoint does
// (a delivery no one signed refused with 4xx): the kit, or an agent that runs it, pointed at
// another service (one on loopback, behind the developer's firewall) must not read it back.
// Its time (when a delivery is signed, how long its answer took, when it stops waiting) is its
// clock's, so that a test can move it past a timeout rather than wait for one.
import { systemClock, type Clock } from "../lib/clock.ts";
import { signWebhook } from "../webhooks/sign.ts";

/** A delivery as sent: the body's exact bytes (as text) and the headers. */
export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

export interface Sent extends Delivery {
  /** The endpoint's status; undefined when it did not answer (`error` says why). */
  status: number | undefined;
  error?: string;
  /** No answer within the time the service waits. */
  timedOut: boolean;
  /** The first bytes of the answer's body; none from a URL that has not answered as a webhook endpoint. */
  answer: string;
  durationMs: number;
}

/** How long the answer's body may take once its status came. */
const BODY_WAIT_MS = 1000;

export class Endpoint {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** The status of each validly signed delivery the contract expects acknowledged, as the checks judged them (undefined: no answer). */
  readonly toAcknowledge: Array<number | undefined> = [];
  /** The transactions of the events it acknowledged: ones it could fetch, if it fetches them. */
  readonly acknowledgedTransactions = new Set<string>();
  /** Whether its answers' bodies are kept to be shown: once it refused what a webhook endpoint refuses. */
  showsAnswers = false;

  constructor(url: string, secret: string, timeoutMs: number, clock: Clock = systemClock) {
    this.url = url;
    this.secret = secret;
    this.timeoutMs = timeoutMs;
    this.clock = clock;
  }

  /** The three headers of `body` signed as the service signs it, or as told otherwise. */
  async signed(
    id: string,
    body: string,
    { secret = this.secret, at = new Date(this.clock.now()) }: { secret?: string; at?: Date } = {},
  ): Promise<Delivery> {
    return { body, headers: await signWebhook({ id, timestamp: at, payload: body, secret }) };
  }

  async send({ body, headers }: Delivery): Promise<Sent> {
    const started = this.clock.now();
    const sent = { body, headers };
    // The service waits for the answer's status, not its body, and follows no redirect.
    const waiting = new AbortController();
    const cancelTimeout = this.clock.setTimer(this.timeoutMs, () => waiting.abort(new DOMException("no answer", "TimeoutError")));
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "payin-conformance", ...headers },
        body,
        redirect: "manual",
        signal: waiting.signal,
      });
      const durationMs = this.clock.now() - started;
      cancelTimeout();
      // Shown in a failure, never judged: a body that does not come is cut off.
      const cancelCutOff = this.clock.setTimer(BODY_WAIT_MS, () => waiting.abort());
      const answer = this.showsAnswers ? await response.text().catch(() => "") : (await response.body?.cancel(), "");
      cancelCutOff();
      return { ...sent, status: response.status, answer: answer.slice(0, 300), timedOut: false, durationMs };
    } catch (error) {
      cancelTimeout();
      const { name, cause, message } = error as Error;
      const timedOut = name === "TimeoutError";
      const why = timedOut
        ? `no answer within ${this.timeoutMs / 1000} s`
        : `no answer: ${(cause as Error | undefined)?.message ?? message}`;
      return { ...sent, status: undefined, error: why, timedOut, answer: "", durationMs: this.clock.now() - started };
    }
  }

  /**
   * Whether the endpoint refused with 4xx every validly signed delivery it should have
   * acknowledged so far (true before the first): what an endpoint does when the kit signs with
   * another secret than the one it verifies with.
   */
  refusedEverySigned(): boolean {
    return this.toAcknowledge.every((status) => status !== undefined && status >= 400 && status < 500);
  }

  /** Whether the endpoint refuses `delivery` with 4xx, as a webhook endpoint refuses one that is not the service's. */
  async refuses(delivery: Delivery): Promise<boolean> {
    const { status } = await this.send(delivery);
    return status !== undefined && status >= 400 && status < 500;
  }

  /** Signs `body` under event id `id` and sends it. */
  async deliver(id: string, body: string): Promise<Sent> {
    return this.send(await this.signed(id, body));
  }
}

/** The lines that show a delivery: the headers and body sent, and what came back. */
export function shownDelivery(sent: Sent): string[] {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);
  const headers = Object.entries(sent.headers).map(([name, value]) => `${name}: ${value}`);
  return [
    `sent: POST ${headers.length ? headers.join("; ") : "(no webhook headers)"}`,
    `      ${cut(sent.body)}`,
    sent.status === undefined ? `came: ${sent.error}` : `came: ${sent.status} ${cut(sent.answer)}`.trimEnd(),
  ];
}
