// The request journal (GET /_sandbox/v1/requests): each account's last requests to the
// contract's operations, in memory. Bounded twice, so that it never grows with the state: the
// last 100 requests of an account, and the 10,000 accounts that made one last.
const PER_ACCOUNT = 100;
const ACCOUNTS = 10_000;

export interface RecordedRequest {
  method: string;
  path: string;
  operation_id: string;
  status: number;
  answered: boolean;
  idempotency_key?: string;
  fault?: { id: string; effect: string };
  received_at: string;
  duration_ms: number;
}

export class Journal {
  /** Oldest first within an account; the account that made a request last, last in the map. */
  readonly #byAccount = new Map<number, RecordedRequest[]>();

  record(accountId: number, request: RecordedRequest) {
    const requests = this.#byAccount.get(accountId) ?? [];
    this.#byAccount.delete(accountId);
    requests.push(request);
    if (requests.length > PER_ACCOUNT) requests.shift();
    this.#byAccount.set(accountId, requests);
    if (this.#byAccount.size > ACCOUNTS) this.#byAccount.delete(this.#byAccount.keys().next().value!);
  }

  /** The account's requests, newest first. */
  list(accountId: number): RecordedRequest[] {
    return [...(this.#byAccount.get(accountId) ?? [])].reverse();
  }

  clear(accountId: number) {
    this.#byAccount.delete(accountId);
  }
}
