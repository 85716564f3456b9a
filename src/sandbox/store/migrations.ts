// The sandbox database's schema, for each engine, as an append-only list of migrations: a
// database made by an older sandbox is brought up to date at start. Never edit a migration that
// has shipped; add one. Every table is keyed by account first: one account never reads another's
// rows. PostgreSQL's list starts at the schema SQLite's reached with its sixth. A change is
// written in both lists: test/sandbox/schema.test.ts compares what each engine's catalog holds
// after them (every column, key, constraint and index) and names what one has and the other lacks.
export const sqliteMigrations: readonly string[] = [
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
  // Cost that does not grow with what is stored, and emails compared without case
  // (decision D19). Each row with work due keeps `due_ms`: the real time it falls due, its
  // account-clock time less the account's offset, or NULL when nothing is due. One index range
  // then holds only what is due, for every account at once, whatever the accounts' clocks say;
  // moving one account's clock re-keys that account's open rows only. (The other way, a
  // next-due time per account, would make every write that schedules work touch the account
  // too.) Records keep only what no column holds: the rest is rebuilt when read, and an
  // event's payload from its session and transaction.
  `
  ALTER TABLE counterparties RENAME TO counterparties_old;
  ALTER TABLE payment_sessions RENAME TO payment_sessions_old;
  ALTER TABLE transactions RENAME TO transactions_old;
  ALTER TABLE events RENAME TO events_old;
  ALTER TABLE idempotency_keys RENAME TO idempotency_keys_old;

  CREATE TABLE counterparties (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    payment_rail TEXT NOT NULL,
    email TEXT NOT NULL,
    phone_number TEXT NOT NULL,
    -- The other fields as sent: type, names, date of birth, address.
    details TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
  ) WITHOUT ROWID;

  CREATE TABLE payment_sessions (
    account_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    counterparty_id TEXT NOT NULL,
    status TEXT NOT NULL,
    -- The request's other fields as sent: amount, currency, order, purpose, URLs.
    request TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    -- While created: when it expires, in real time.
    due_ms INTEGER,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, counterparty_id) REFERENCES counterparties (account_id, id)
  ) WITHOUT ROWID;

  CREATE TABLE transactions (
    account_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    status TEXT NOT NULL,
    failure_reason TEXT,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    -- While completed: when it settles, in real time.
    due_ms INTEGER,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, session_id) REFERENCES payment_sessions (account_id, id)
  ) WITHOUT ROWID;

  CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    session_id TEXT NOT NULL,
    transaction_id TEXT,
    created_at_ms INTEGER NOT NULL,
    -- waiting (for a webhook URL), pending (to deliver), delivered, or failed (no attempt left).
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    -- While pending and the first undelivered event of its session: its next attempt, in real time.
    due_ms INTEGER,
    UNIQUE (account_id, id)
  );

  CREATE TABLE idempotency_keys (
    account_id INTEGER NOT NULL,
    operation TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    -- When it may be forgotten, in real time.
    due_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, operation, key)
  ) WITHOUT ROWID;

  INSERT INTO counterparties
    SELECT account_id, id, payment_rail, email, phone_number,
      json_remove(record, '$.id', '$.payment_rail', '$.email', '$.phone_number', '$.created_at'), created_at_ms
    FROM counterparties_old;
  INSERT INTO payment_sessions
    SELECT s.account_id, s.id, s.counterparty_id, s.status,
      json_remove(s.record, '$.id', '$.status', '$.payment_link', '$.counterparty_id', '$.created_at', '$.expires_at'), s.created_at_ms,
      CASE WHEN s.status = 'created' THEN s.expires_at_ms - a.clock_offset_ms END
    FROM payment_sessions_old s JOIN accounts a ON a.id = s.account_id;
  INSERT INTO transactions
    SELECT t.account_id, t.id, t.session_id, t.status, json_extract(t.record, '$.failure_reason'), t.created_at_ms, t.updated_at_ms,
      CASE WHEN t.status = 'completed' THEN t.settles_at_ms - a.clock_offset_ms END
    FROM transactions_old t JOIN accounts a ON a.id = t.account_id;
  INSERT INTO events
    SELECT e.seq, e.account_id, e.id, e.type, e.session_id, json_extract(e.payload, '$.data.transaction_id'), ` +
    `e.created_at_ms, e.state, e.attempts,
      CASE WHEN e.state = 'pending' AND NOT EXISTS (SELECT 1 FROM events_old earlier
        WHERE earlier.account_id = e.account_id AND earlier.session_id = e.session_id AND earlier.state = 'pending' AND earlier.seq < e.seq)
      THEN e.next_attempt_at_ms - a.clock_offset_ms END
    FROM events_old e JOIN accounts a ON a.id = e.account_id;
  INSERT INTO idempotency_keys
    SELECT k.account_id, k.operation, k.key, k.request_hash, k.status, k.response, k.created_at_ms, ` +
    `k.created_at_ms + 86400000 - a.clock_offset_ms
    FROM idempotency_keys_old k JOIN accounts a ON a.id = k.account_id;

  DROP TABLE events_old;
  DROP TABLE transactions_old;
  DROP TABLE payment_sessions_old;
  DROP TABLE counterparties_old;
  DROP TABLE idempotency_keys_old;

  -- The seed's rule: the email and phone_number combination is unique per PAYIN counterparty.
  CREATE UNIQUE INDEX counterparties_payin_contact ON counterparties (account_id, email COLLATE NOCASE, phone_number)
    WHERE payment_rail = 'PAYIN';
  -- The payment page finds a session by its id alone.
  CREATE INDEX payment_sessions_by_id ON payment_sessions (id);
  -- What is due, for every account and for one (which also finds an account's rows to re-key).
  CREATE INDEX payment_sessions_due ON payment_sessions (due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX payment_sessions_due_by_account ON payment_sessions (account_id, due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX transactions_due ON transactions (due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX transactions_due_by_account ON transactions (account_id, due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX events_due ON events (due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX events_due_by_account ON events (account_id, due_ms) WHERE due_ms IS NOT NULL;
  -- A session's undelivered events, in order: the next one is due once the one before is done.
  CREATE INDEX events_pending_by_session ON events (account_id, session_id, seq) WHERE state = 'pending';
  CREATE INDEX idempotency_keys_due ON idempotency_keys (due_ms);
  `,
  `
  -- Faults armed on an account's requests or deliveries (POST /_sandbox/v1/faults), oldest first.
  CREATE TABLE faults (
    seq INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    target TEXT NOT NULL,
    effect TEXT NOT NULL,
    operation_id TEXT,
    status INTEGER,
    retry_after_seconds INTEGER,
    delay_ms INTEGER,
    times_left INTEGER,
    share REAL,
    -- The requests it applied to so far, acted on or not: a share acts on the n-th when
    -- n times the share passes a whole number.
    matched INTEGER NOT NULL DEFAULT 0,
    met INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL
  );
  CREATE INDEX faults_by_account ON faults (account_id, seq);
  -- What delivery faults did to an attempt on purpose: a comma-separated list, or null.
  ALTER TABLE delivery_attempts ADD COLUMN faults TEXT;
  `,
  // The delivery log of one session (GET /_sandbox/v1/deliveries?session_id=), whatever became of its events.
  `
  CREATE INDEX events_by_session ON events (account_id, session_id, seq);
  `,
  // Several processes on one database (PostgreSQL's first schema has these from the start): a
  // delivery attempt is claimed until its lease ends, and the request journal is the database's.
  `
  ALTER TABLE events ADD COLUMN claim TEXT;
  ALTER TABLE events ADD COLUMN claim_until_ms INTEGER;
  CREATE TABLE requests (
    seq INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    operation_id TEXT NOT NULL,
    status INTEGER NOT NULL,
    answered INTEGER NOT NULL,
    idempotency_key TEXT,
    fault_id TEXT,
    fault_effect TEXT,
    received_at_ms INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL
  );
  CREATE INDEX requests_by_account ON requests (account_id, seq);
  -- The events a process claimed, which it gives up when it closes.
  CREATE INDEX events_claimed ON events (claim) WHERE claim IS NOT NULL;
  `,
  // payin-listen: a listener connected to the account takes its deliveries (decision D23), its
  // signing secret made when it first connects if no URL was ever registered (a webhook row
  // without a URL); one listener per account, held by a process that renews its lease.
  `
  ALTER TABLE webhooks RENAME TO webhooks_old;
  CREATE TABLE webhooks (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
    url TEXT,
    signing_secret TEXT NOT NULL,
    registrations INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
  );
  INSERT INTO webhooks SELECT account_id, url, signing_secret, registrations, created_at_ms, updated_at_ms FROM webhooks_old;
  DROP TABLE webhooks_old;
  CREATE TABLE listeners (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
    process TEXT NOT NULL,
    connection TEXT NOT NULL,
    forward_to TEXT,
    until_ms INTEGER NOT NULL
  );
  `,
  // Retention: when the account was last asked for, by a request with its token (kept to within
  // a tenth of the retention, not written at every request), so that a sweep finds the idle ones.
  `
  ALTER TABLE accounts ADD COLUMN last_request_ms INTEGER NOT NULL DEFAULT 0;
  UPDATE accounts SET last_request_ms = created_at_ms;
  CREATE INDEX accounts_by_last_request ON accounts (last_request_ms);
  `,
  // Accounts issued to a tenant (payin-sandbox accounts create) beside those a token makes on first
  // use: a token is kept only as its SHA-256, so that a copy of the database opens no account.
  `
  ALTER TABLE accounts RENAME COLUMN token TO token_hash;
  UPDATE accounts SET token_hash = payin_sha256(token_hash);
  ALTER TABLE accounts ADD COLUMN name TEXT;
  ALTER TABLE accounts ADD COLUMN issued INTEGER NOT NULL DEFAULT 0;
  `,
  // The order rule is the claim's: every pending event is due from its own time, and only the oldest of its session not
  // yet done with is claimed. The events that waited behind an earlier one, with no due time, get theirs.
  `
  UPDATE events SET due_ms = created_at_ms - (SELECT clock_offset_ms FROM accounts WHERE id = events.account_id)
  WHERE state = 'pending' AND due_ms IS NULL;
  `,
  // Each attempt as it went, for the dashboard: the request's headers, which differ per attempt (its
  // timestamp and signature), as JSON; and the answer's first bytes as text, at most 512, which a
  // hosted sandbox never keeps (decision D21). The body is the event's payload, rebuilt when read.
  `
  ALTER TABLE delivery_attempts ADD COLUMN request_headers TEXT;
  ALTER TABLE delivery_attempts ADD COLUMN response_first_bytes TEXT;
  `,
  // The delivery log a page at a time (GET /_sandbox/v1/deliveries?cursor=): a page is read from an index in the log's
  // order (the attempt's time, its event's number, the attempt's number) from where the page before ended, so that a
  // long log costs each page the same. Each attempt keeps its event's number for that (NOT NULL: SQLite adds no such
  // column to a table, so the table is made again; an attempt without its event was never listed, and is left out).
  // And the dashboard's newest events of an account, read backwards from an index rather than sorted.
  `
  ALTER TABLE delivery_attempts RENAME TO delivery_attempts_old;
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
    faults TEXT,
    request_headers TEXT,
    response_first_bytes TEXT,
    event_seq INTEGER NOT NULL,
    PRIMARY KEY (account_id, event_id, attempt)
  ) WITHOUT ROWID;
  INSERT INTO delivery_attempts
    SELECT d.account_id, d.event_id, d.attempt, d.url, d.response_status, d.error, d.succeeded, d.attempted_at_ms, d.duration_ms,
      d.next_attempt_at_ms, d.faults, d.request_headers, d.response_first_bytes, e.seq
    FROM delivery_attempts_old d JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id;
  DROP TABLE delivery_attempts_old;
  CREATE INDEX delivery_attempts_by_account ON delivery_attempts (account_id, attempted_at_ms, event_seq, attempt);
  CREATE INDEX events_by_account ON events (account_id, seq);
  `,
  // The sandbox's own keys, no account's: the one a listener's delivery ids are signed with, which
  // every process needs the same so that any of them checks an answer without the database.
  `
  CREATE TABLE sandbox_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL
  );
  `,
  // Indexes that cost each delivery more than they earn: a claim found by its own index (released
  // when a process closes, found now among the due rows, as every claimed event is due), and the
  // pending events of a session (its events index finds them as well: a session has a few). A claim
  // then changes no indexed column, and PostgreSQL writes it beside the row, touching no index.
  `
  DROP INDEX events_claimed;
  DROP INDEX events_pending_by_session;
  `,
];

export const postgresMigrations: readonly string[] = [
  `
  CREATE TABLE accounts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    clock_offset_ms BIGINT NOT NULL DEFAULT 0,
    created_at_ms BIGINT NOT NULL
  );
  CREATE TABLE counterparties (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    payment_rail TEXT NOT NULL,
    email TEXT NOT NULL,
    phone_number TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, id)
  );
  CREATE UNIQUE INDEX counterparties_payin_contact ON counterparties (account_id, lower(email), phone_number)
    WHERE payment_rail = 'PAYIN';
  CREATE TABLE payment_sessions (
    account_id BIGINT NOT NULL,
    id TEXT NOT NULL,
    counterparty_id TEXT NOT NULL,
    status TEXT NOT NULL,
    request TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    due_ms BIGINT,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, counterparty_id) REFERENCES counterparties (account_id, id)
  );
  CREATE TABLE transactions (
    account_id BIGINT NOT NULL,
    id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    status TEXT NOT NULL,
    failure_reason TEXT,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    due_ms BIGINT,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, session_id) REFERENCES payment_sessions (account_id, id)
  );
  CREATE TABLE webhooks (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    url TEXT NOT NULL,
    signing_secret TEXT NOT NULL,
    registrations INTEGER NOT NULL,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
  );
  CREATE TABLE events (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    session_id TEXT NOT NULL,
    transaction_id TEXT,
    created_at_ms BIGINT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    due_ms BIGINT,
    claim TEXT,
    claim_until_ms BIGINT,
    UNIQUE (account_id, id)
  );
  CREATE TABLE delivery_attempts (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    event_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    url TEXT NOT NULL,
    response_status INTEGER,
    error TEXT,
    succeeded INTEGER NOT NULL,
    attempted_at_ms BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    next_attempt_at_ms BIGINT,
    faults TEXT,
    PRIMARY KEY (account_id, event_id, attempt)
  );
  CREATE TABLE idempotency_keys (
    account_id BIGINT NOT NULL,
    operation TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    due_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, operation, key)
  );
  CREATE TABLE faults (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    id TEXT NOT NULL,
    target TEXT NOT NULL,
    effect TEXT NOT NULL,
    operation_id TEXT,
    status INTEGER,
    retry_after_seconds INTEGER,
    delay_ms BIGINT,
    times_left INTEGER,
    share DOUBLE PRECISION,
    matched INTEGER NOT NULL DEFAULT 0,
    met INTEGER NOT NULL DEFAULT 0,
    created_at_ms BIGINT NOT NULL
  );
  CREATE TABLE requests (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    operation_id TEXT NOT NULL,
    status INTEGER NOT NULL,
    answered INTEGER NOT NULL,
    idempotency_key TEXT,
    fault_id TEXT,
    fault_effect TEXT,
    received_at_ms BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL
  );
  CREATE INDEX payment_sessions_by_id ON payment_sessions (id);
  CREATE INDEX payment_sessions_due ON payment_sessions (due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX payment_sessions_due_by_account ON payment_sessions (account_id, due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX transactions_due ON transactions (due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX transactions_due_by_account ON transactions (account_id, due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX events_due ON events (due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX events_due_by_account ON events (account_id, due_ms) WHERE due_ms IS NOT NULL;
  CREATE INDEX events_pending_by_session ON events (account_id, session_id, seq) WHERE state = 'pending';
  CREATE INDEX events_by_session ON events (account_id, session_id, seq);
  CREATE INDEX idempotency_keys_due ON idempotency_keys (due_ms);
  CREATE INDEX faults_by_account ON faults (account_id, seq);
  CREATE INDEX requests_by_account ON requests (account_id, seq);
  -- The events a process claimed, which it gives up when it closes.
  CREATE INDEX events_claimed ON events (claim) WHERE claim IS NOT NULL;
  `,
  // payin-listen (decision D23): see the SQLite migration of the same name.
  `
  ALTER TABLE webhooks ALTER COLUMN url DROP NOT NULL;
  CREATE TABLE listeners (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    process TEXT NOT NULL,
    connection TEXT NOT NULL,
    forward_to TEXT,
    until_ms BIGINT NOT NULL
  );
  `,
  // Retention: see the SQLite migration of the same name.
  `
  ALTER TABLE accounts ADD COLUMN last_request_ms BIGINT NOT NULL DEFAULT 0;
  UPDATE accounts SET last_request_ms = created_at_ms;
  CREATE INDEX accounts_by_last_request ON accounts (last_request_ms);
  `,
  // Issued accounts, and tokens kept as their SHA-256: see the SQLite migration of the same name.
  `
  ALTER TABLE accounts RENAME COLUMN token TO token_hash;
  UPDATE accounts SET token_hash = encode(sha256(convert_to(token_hash, 'UTF8')), 'hex');
  ALTER TABLE accounts ADD COLUMN name TEXT;
  ALTER TABLE accounts ADD COLUMN issued INTEGER NOT NULL DEFAULT 0;
  `,
  // Every pending event due from its own time: see the SQLite migration of the same name.
  `
  UPDATE events SET due_ms = created_at_ms - (SELECT clock_offset_ms FROM accounts WHERE id = events.account_id)
  WHERE state = 'pending' AND due_ms IS NULL;
  `,
  // Each attempt as it went: see the SQLite migration of the same name.
  `
  ALTER TABLE delivery_attempts ADD COLUMN request_headers TEXT;
  ALTER TABLE delivery_attempts ADD COLUMN response_first_bytes TEXT;
  `,
  // The delivery log a page at a time, and the dashboard's newest events: see the SQLite migration of the same name.
  `
  ALTER TABLE delivery_attempts ADD COLUMN event_seq BIGINT;
  UPDATE delivery_attempts d SET event_seq = e.seq FROM events e WHERE e.account_id = d.account_id AND e.id = d.event_id;
  DELETE FROM delivery_attempts WHERE event_seq IS NULL;
  ALTER TABLE delivery_attempts ALTER COLUMN event_seq SET NOT NULL;
  CREATE INDEX delivery_attempts_by_account ON delivery_attempts (account_id, attempted_at_ms, event_seq, attempt);
  CREATE INDEX events_by_account ON events (account_id, seq);
  `,
  // The sandbox's own keys: see the SQLite migration of the same name.
  `
  CREATE TABLE sandbox_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL
  );
  `,
  // Indexes that cost each delivery more than they earn: see the SQLite migration of the same
  // name. New pages of events keep room for a claim's row beside the old one (a HOT update).
  `
  DROP INDEX events_claimed;
  DROP INDEX events_pending_by_session;
  ALTER TABLE events SET (fillfactor = 70);
  `,
];
