// The request journal (GET /_sandbox/v1/requests): each account's last requests to the
// contract's operations, in memory. Bounded twice, so that it never grows with the state: the
// last 100 requests of an account, in a ring, and the 1,000 accounts that made one last. A
// request pays for one small object; the answer's format is made only when it is listed.
import { isoTime } from "../../lib/time.ts";

const PER_ACCOUNT = 100;
const ACCOUNTS = 1000;

export interface JournalEntry {
  method: string;
  path: string;
  operationId: string;
  status: number;
  /** False when a drop fault closed the connection before the answer. */
  answered: boolean;
  idempotencyKey: string | undefined;
  fault: { id: string; effect: string } | undefined;
  /** On the account's clock. */
  receivedAtMs: number;
  durationMs: number;
}

interface Ring {
  entries: JournalEntry[];
  /** Where the next entry goes once the ring is full: the oldest one's place. */
  next: number;
}

export class Journal {
  /** The account that made a request last, last in the map. */
  readonly #byAccount = new Map<number, Ring>();

  record(accountId: number, entry: JournalEntry) {
    const ring = this.#byAccount.get(accountId) ?? { entries: [], next: 0 };
    // Last in the map: the account that made a request last, kept when the map is full.
    this.#byAccount.delete(accountId);
    this.#byAccount.set(accountId, ring);
    if (this.#byAccount.size > ACCOUNTS) this.#byAccount.delete(this.#byAccount.keys().next().value!);
    if (ring.entries.length < PER_ACCOUNT) ring.entries.push(entry);
    else {
      ring.entries[ring.next] = entry;
      ring.next = (ring.next + 1) % PER_ACCOUNT;
    }
  }

  /** The account's requests, newest first, as the control API shows them. */
  list(accountId: number) {
    const ring = this.#byAccount.get(accountId);
    if (!ring) return [];
    const oldestFirst = [...ring.entries.slice(ring.next), ...ring.entries.slice(0, ring.next)];
    return oldestFirst.reverse().map((e) => ({
      method: e.method,
      path: e.path,
      operation_id: e.operationId,
      status: e.status,
      answered: e.answered,
      ...(e.idempotencyKey === undefined ? {} : { idempotency_key: e.idempotencyKey }),
      ...(e.fault === undefined ? {} : { fault: e.fault }),
      received_at: isoTime(e.receivedAtMs),
      duration_ms: e.durationMs,
    }));
  }

  clear(accountId: number) {
    this.#byAccount.delete(accountId);
  }
}
