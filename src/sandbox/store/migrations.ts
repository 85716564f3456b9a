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
  // The payment flow: transactions settle on the account's clock, the payment page finds a
  // session by its id alone, and every event waits in an outbox until it is delivered.
  `
  ALTER TABLE transactions ADD COLUMN settles_at_ms INTEGER;
  CREATE INDEX transactions_due ON transactions (status, settles_at_ms);
  CREATE INDEX payment_sessions_by_id ON payment_sessions (id);

  -- Written in the same SQLite transaction as the state change it announces.
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    -- Events of one session are delivered one at a time, in the order they were made.
    session_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    -- waiting (for a webhook URL), pending (its next attempt), delivered, or failed (no attempt left).
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at_ms INTEGER NOT NULL,
    UNIQUE (account_id, id)
  );
  -- Covers what the dispatcher looks for, so that finding what is due reads no event's payload.
  CREATE INDEX events_due ON events (state, next_attempt_at_ms, account_id, session_id);

  CREATE TABLE delivery_attempts (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    event_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    url TEXT NOT NULL,
    response_status INTEGER,
    error TEXT,
    succeeded INTEGER NOT NULL,
    attempted_at_ms INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    next_attempt_at_ms INTEGER,
    PRIMARY KEY (account_id, event_id, attempt)
  ) WITHOUT ROWID;
  `,
  // Emails compare case-insensitively in the uniqueness rule (decision D19). The email format
  // takes ASCII only, which is what NOCASE folds.
  `
  DROP INDEX counterparties_payin_contact;
  CREATE UNIQUE INDEX counterparties_payin_contact ON counterparties (account_id, email COLLATE NOCASE, phone_number)
    WHERE payment_rail = 'PAYIN';
  `,
  // A session's events go out in order, each once the earlier ones are acknowledged or failed
  // for good: this finds whether an earlier one is still pending, and counts an account's due ones.
  `
  CREATE INDEX events_pending_by_session ON events (account_id, session_id, seq, next_attempt_at_ms) WHERE state = 'pending';
  `,
];
