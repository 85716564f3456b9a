// What a sandbox is started with (startSandbox(), the payin-sandbox flags), and the settings the
// runtime takes from them, each checked once here.
import type { Clock } from "../../lib/clock.ts";
import type { Resolve } from "../delivery/destinations.ts";
import { linkBase } from "../flow/urls.ts";
import { DEFAULT_RETENTION_MS } from "../store/index.ts";
import { isPostgresUrl } from "../store/location.ts";

export interface SandboxOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** SQLite database file that keeps the state across restarts. Default `:memory:`. */
  db?: string;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/database`): the state is kept there,
   * and any number of sandboxes started on it serve the same accounts. In place of `db`.
   */
  database?: string;
  /** Seconds of sandbox time from a completed transaction to its settlement. Default 60. */
  settlementDelaySeconds?: number;
  /**
   * Seconds of sandbox time before each retry of a failed webhook delivery; its length is the
   * number of retries. Default Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (20 % jitter).
   * A short one such as `[1, 1, 1]` suits CI.
   */
  retryScheduleSeconds?: readonly number[];
  /** How long a webhook receiver has to answer an attempt, in milliseconds. Default 15,000. */
  deliveryTimeoutMs?: number;
  /**
   * How long an idle kept-alive connection is kept, in milliseconds, as announced in `Keep-Alive`
   * (node:http holds it a second longer). Default node:http's 5,000; a test's own is short.
   */
  keepAliveTimeoutMs?: number;
  /**
   * The URL the sandbox is reached at, when not the address it listens on (a container's
   * name, a tunnel): the origin of every `payment_link`. Default: `http://<host>:<port>`.
   */
  publicUrl?: string;
  /**
   * Hosts outside loopback that webhooks may be delivered to; `*` allows every host. Default
   * none: an attempt to another host is recorded as failed without a connection (decision D21).
   */
  allowWebhookHosts?: readonly string[];
  /**
   * Once other hosts are allowed, networks of the sandbox's own (CIDRs such as `10.1.0.0/16`) that
   * deliveries may still reach; by default none: no loopback, private, link-local or other
   * non-public address (decision D21).
   */
  allowWebhookNetworks?: readonly string[];
  /**
   * Requests a second each token may make to this process, with a burst of as many at once;
   * beyond it, the contract's 429 with Retry-After, for that token only. Default none.
   */
  rateLimitPerSecond?: number;
  /** The shortest bearer token taken: a shorter one gets 401 naming the minimum. Default any. */
  minTokenLength?: number;
  /**
   * `open` (the default): any bearer token is an account, made on its first request; `issued`: only
   * the accounts issued beforehand (`payin-sandbox accounts create`), any other token refused with 401.
   */
  accounts?: "open" | "issued";
  /**
   * Networks of the load balancers in front (CIDRs): a request from one of them is counted against
   * the client its `X-Forwarded-For` names (the nearest address that is not one of them). Default
   * none: every request is counted against the address it comes from.
   */
  trustedProxies?: readonly string[];
  /** How host names are resolved for deliveries (the system's resolver by default): a test's own. */
  resolveHost?: Resolve;
  /**
   * Seconds between `close()` (SIGTERM) and the end of serving, while `/_sandbox/health` answers
   * 503 so that a load balancer takes the process out first. Default 0.
   */
  drainSeconds?: number;
  /**
   * Seconds an account may go without a request before it is deleted with everything it holds
   * (its token then makes a new one). Default 30 days.
   */
  retentionSeconds?: number;
  /**
   * The real time the sandbox reads and waits on (the system's by default): a test's own clock
   * makes a rate, a timeout or a retention pass at once.
   */
  clock?: Clock;
}

/** The options checked: an error names the first that cannot be. */
export function checked(options: SandboxOptions) {
  if (options.database !== undefined && !isPostgresUrl(options.database))
    throw new Error(`The database must be a postgres:// URL, not ${JSON.stringify(options.database)}; a SQLite file is given as db.`);
  if (options.accounts !== undefined && options.accounts !== "open" && options.accounts !== "issued")
    throw new Error(`accounts must be "open" or "issued", not ${JSON.stringify(options.accounts)}.`);
  if (options.accounts === "issued" && options.db === undefined && options.database === undefined)
    throw new Error(
      "Issued accounts are kept in the sandbox's store: give it a db file or a database, where payin-sandbox accounts create issues them.",
    );
  const retentionMs = (options.retentionSeconds ?? DEFAULT_RETENTION_MS / 1000) * 1000;
  if (!(retentionMs > 0)) throw new Error(`retentionSeconds must be more than 0, not ${options.retentionSeconds}.`);
  return {
    ...options,
    publicUrl: options.publicUrl === undefined ? undefined : linkBase(options.publicUrl, "publicUrl"),
    retentionMs,
    drainMs: (options.drainSeconds ?? 0) * 1000,
  };
}
