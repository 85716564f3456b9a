import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";
import { isConstraint, prepareAll, SQLITE_CONSTRAINT_UNIQUE } from "./database.ts";

type Counterparty = components["schemas"]["Counterparty"];

export type CreateResult = { created: Counterparty } | { existingId: string };

export class Counterparties {
  readonly #sql;

  constructor(db: DatabaseSync) {
    this.#sql = prepareAll(db, {
      insert:
        "INSERT INTO counterparties (account_id, id, payment_rail, email, phone_number, details, created_at_ms) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
      byContact:
        "SELECT id FROM counterparties WHERE account_id = ? AND email = ? COLLATE NOCASE AND phone_number = ? AND payment_rail = 'PAYIN'",
      // Ids start with the time they were made: the key's order is newest last.
      recent: "SELECT id, email, phone_number, created_at_ms FROM counterparties WHERE account_id = ? ORDER BY id DESC LIMIT ?",
    });
  }

  /**
   * Stores the counterparty, or names the one that already has its email and phone number:
   * the unique index decides, so two requests at once can never both create one.
   */
  /** The account's newest counterparties, newest first (the dashboard's list). */
  recent(accountId: number, limit: number) {
    return this.#sql.recent.all(accountId, limit) as Array<{ id: string; email: string; phone_number: string; created_at_ms: number }>;
  }

  create(accountId: number, counterparty: Counterparty, createdAtMs: number): CreateResult {
    try {
      const { id, payment_rail, email, phone_number, created_at: _, ...details } = counterparty;
      this.#sql.insert.run(accountId, id, payment_rail, email, phone_number, JSON.stringify(details), createdAtMs);
      return { created: counterparty };
    } catch (error) {
      if (!isConstraint(error, SQLITE_CONSTRAINT_UNIQUE)) throw error;
      const existing = this.#sql.byContact.get(accountId, counterparty.email, counterparty.phone_number) as { id: string };
      return { existingId: existing.id };
    }
  }
}
