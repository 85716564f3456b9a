import type { components } from "../../../generated/openapi.ts";
import type { Database } from "./database.ts";

type Counterparty = components["schemas"]["Counterparty"];

export type CreateResult = { created: Counterparty } | { existingId: string };

// The unique index on the PAYIN contact decides; DO NOTHING so that a duplicate is no error, which
// would end a PostgreSQL transaction.
const INSERT =
  "INSERT INTO counterparties (account_id, id, payment_rail, email, phone_number, details, created_at_ms) " +
  "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
const BY_CONTACT =
  "SELECT id FROM counterparties WHERE account_id = ? AND lower(email) = lower(?) AND phone_number = ? AND payment_rail = 'PAYIN'";
// Ids start with the time they were made: the key's order is newest last.
const RECENT = "SELECT id, email, phone_number, created_at_ms FROM counterparties WHERE account_id = ? ORDER BY id DESC LIMIT ?";

export class Counterparties {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The account's newest counterparties, newest first (the dashboard's list). */
  recent(accountId: number, limit: number) {
    return this.#db.all<{ id: string; email: string; phone_number: string; created_at_ms: number }>(RECENT, accountId, limit);
  }

  /**
   * Stores the counterparty, or names the one that already has its email and phone number:
   * the unique index decides, so two requests at once can never both create one.
   */
  async create(accountId: number, counterparty: Counterparty, createdAtMs: number): Promise<CreateResult> {
    const { id, payment_rail, email, phone_number, created_at: _, ...details } = counterparty;
    if ((await this.#db.run(INSERT, accountId, id, payment_rail, email, phone_number, JSON.stringify(details), createdAtMs)) === 1)
      return { created: counterparty };
    const existing = await this.#db.get<{ id: string }>(BY_CONTACT, accountId, email, phone_number);
    return { existingId: existing!.id };
  }
}
