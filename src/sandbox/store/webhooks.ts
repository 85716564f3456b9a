import { isoTime } from "../../lib/time.ts";
import { newSigningSecret } from "../../lib/ids.ts";
import type { Database } from "./database.ts";

export interface WebhookRow {
  /** Null when no URL was ever registered: the row holds the secret a listener made (decision D23). */
  url: string | null;
  signing_secret: string;
  registrations: number;
  created_at_ms: number;
  updated_at_ms: number;
}

export const webhookTimes = (row: WebhookRow) => ({ created_at: isoTime(row.created_at_ms), updated_at: isoTime(row.updated_at_ms) });

const COLUMNS = "url, signing_secret, registrations, created_at_ms, updated_at_ms";
// One statement: the first registration makes the secret, a later one keeps it.
const REGISTER = `INSERT INTO webhooks (account_id, ${COLUMNS}) VALUES (?, ?, ?, 1, ?, ?)
  ON CONFLICT (account_id) DO UPDATE
  SET url = excluded.url, updated_at_ms = excluded.updated_at_ms, registrations = webhooks.registrations + 1
  RETURNING ${COLUMNS}`;
const GET = `SELECT ${COLUMNS} FROM webhooks WHERE account_id = ?`;
// A listener's first connection makes the secret a later registration keeps; one there already stays.
const SECRET = `INSERT INTO webhooks (account_id, ${COLUMNS}) VALUES (?, NULL, ?, 0, ?, ?) ON CONFLICT (account_id) DO NOTHING`;

export class Webhooks {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async register(accountId: number, url: string, atMs: number): Promise<WebhookRow> {
    return (await this.#db.get<WebhookRow>(REGISTER, accountId, url, newSigningSecret(), atMs, atMs))!;
  }

  get(accountId: number): Promise<WebhookRow | undefined> {
    return this.#db.get<WebhookRow>(GET, accountId);
  }

  /** The account's signing secret, made now if it has none (no URL was ever registered). */
  async secret(accountId: number, atMs: number): Promise<string> {
    await this.#db.run(SECRET, accountId, newSigningSecret(), atMs, atMs);
    return (await this.get(accountId))!.signing_secret;
  }
}
