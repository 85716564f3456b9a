// The sandbox database's schema, as an append-only list of migrations: a database made by an
// older sandbox is brought up to date at start. Never edit a migration that has shipped; add one.
// Every table is keyed by account first: one account never reads another's rows.
export const migrations: readonly string[] = [
  `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    -- The account's clock is real time plus this offset (POST /_sandbox/v1/clock/advance).
    clock_offset_ms INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL
  );

  CREATE TABLE counterparties (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    payment_rail TEXT NOT NULL,
    email TEXT NOT NULL,
    phone_number TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
  ) WITHOUT ROWID;
  -- The seed's rule: the email and phone_number combination is unique per PAYIN counterparty.
  CREATE UNIQUE INDEX counterparties_payin_contact ON counterparties (account_id, email, phone_number)
    WHERE payment_rail = 'PAYIN';

  CREATE TABLE payment_sessions (
    account_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    counterparty_id TEXT NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, id),
    -- A session needs a counterparty of the same account: the insert itself says so.
    FOREIGN KEY (account_id, counterparty_id) REFERENCES counterparties (account_id, id)
  ) WITHOUT ROWID;
  CREATE INDEX payment_sessions_due ON payment_sessions (status, expires_at_ms);

  CREATE TABLE transactions (
    account_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, session_id) REFERENCES payment_sessions (account_id, id)
  ) WITHOUT ROWID;

  CREATE TABLE webhooks (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
    url TEXT NOT NULL,
    signing_secret TEXT NOT NULL,
    registrations INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
  );

  CREATE TABLE idempotency_keys (
    account_id INTEGER NOT NULL,
    operation TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, operation, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at_ms);
  `,
];
