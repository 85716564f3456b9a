import type { DatabaseSync } from "node:sqlite";
import { isoTime } from "../../lib/time.ts";
import { newSigningSecret } from "../../lib/ids.ts";
import { prepareAll } from "./database.ts";

export interface WebhookRow {
  url: string;
  signing_secret: string;
  registrations: number;
  created_at_ms: number;
  updated_at_ms: number;
}

export const webhookTimes = (row: WebhookRow) => ({ created_at: isoTime(row.created_at_ms), updated_at: isoTime(row.updated_at_ms) });

export class Webhooks {
  readonly #sql;

  constructor(db: DatabaseSync) {
    this.#sql = prepareAll(db, {
      // One statement: the first registration makes the secret, a later one keeps it.
      register:
        "INSERT INTO webhooks (account_id, url, signing_secret, registrations, created_at_ms, updated_at_ms) " +
        `VALUES (?, ?, ?, 1, ?, ?)
        ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, updated_at_ms = excluded.updated_at_ms, registrations = registrations + 1
        RETURNING url, signing_secret, registrations, created_at_ms, updated_at_ms`,
      get: "SELECT url, signing_secret, registrations, created_at_ms, updated_at_ms FROM webhooks WHERE account_id = ?",
    });
  }

  register(accountId: number, url: string, atMs: number): WebhookRow {
    return this.#sql.register.get(accountId, url, newSigningSecret(), atMs, atMs) as unknown as WebhookRow;
  }

  get(accountId: number): WebhookRow | undefined {
    return this.#sql.get.get(accountId) as unknown as WebhookRow | undefined;
  }
}
