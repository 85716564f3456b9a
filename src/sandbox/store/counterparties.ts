import type { components } from "../../../generated/openapi.ts";
import type { Database } from "./database.ts";

type Counterparty = components["schemas"]["Counterparty"];

export type CreateResult = { created: Counterparty } | { existingId: string };

/** A counterparty as the dashboard shows it: who the customer is and how to reach them. */
export interface Contact {
  id: string;
  /** The given and family names. */
  name: string;
  email: string;
  phone_number: string;
  created_at_ms: number;
}

const CONTACT = "SELECT id, email, phone_number, details, created_at_ms FROM counterparties WHERE account_id = ?";
const contact = ({ details, ...row }: Omit<Contact, "name"> & { details: string }): Contact => {
  const { first_name, last_name } = JSON.parse(details) as Pick<Counterparty, "first_name" | "last_name">;
  return { ...row, name: `${first_name} ${last_name}` };
};

// The unique index on the PAYIN contact decides; DO NOTHING so that a duplicate is no error, which
// would end a PostgreSQL transaction.
const INSERT =
  "INSERT INTO counterparties (account_id, id, payment_rail, email, phone_number, details, created_at_ms) " +
  "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
const BY_CONTACT =
  "SELECT id FROM counterparties WHERE account_id = ? AND lower(email) = lower(?) AND phone_number = ? AND payment_rail = 'PAYIN'";
// Optimistic (Database.optimistic): the unique index fails the transaction instead.
const INSERT_OR_FAIL =
  "INSERT INTO counterparties (account_id, id, payment_rail, email, phone_number, details, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)";
// Ids start with the time they were made: the key's order is newest last.
const RECENT = `${CONTACT} ORDER BY id DESC LIMIT ?`;
const OF = (count: number) => `${CONTACT} AND id IN (${Array(count).fill("?").join(", ")})`;

export class Counterparties {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The account's newest counterparties, newest first (the dashboard's list). */
  async recent(accountId: number, limit: number): Promise<Contact[]> {
    return (await this.#db.all<Parameters<typeof contact>[0]>(RECENT, accountId, limit)).map(contact);
  }

  /** The account's counterparties of `ids` (the customers of the dashboard's sessions), in no order. */
  async of(accountId: number, ids: readonly string[]): Promise<Contact[]> {
    if (ids.length === 0) return [];
    return (await this.#db.all<Parameters<typeof contact>[0]>(OF(ids.length), accountId, ...ids)).map(contact);
  }

  /**
   * Stores the counterparty, or names the one that already has its email and phone number:
   * the unique index decides, so two requests at once can never both create one.
   */
  async create(accountId: number, counterparty: Counterparty, createdAtMs: number): Promise<CreateResult> {
    const { id, payment_rail, email, phone_number, created_at: _, ...details } = counterparty;
    const values = [accountId, id, payment_rail, email, phone_number, JSON.stringify(details), createdAtMs];
    if (this.#db.optimistic) {
      await this.#db.write(INSERT_OR_FAIL, ...values);
      return { created: counterparty };
    }
    if ((await this.#db.run(INSERT, ...values)) === 1) return { created: counterparty };
    const existing = await this.#db.get<{ id: string }>(BY_CONTACT, accountId, email, phone_number);
    return { existingId: existing!.id };
  }
}
