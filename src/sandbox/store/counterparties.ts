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
    });
  }

  /**
   * Stores the counterparty, or names the one that already has its email and phone number:
   * the unique index decides, so two requests at once can never both create one.
   */
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
