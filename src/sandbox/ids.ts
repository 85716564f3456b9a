// Identifiers and secrets, random and URL-safe, with the prefixes the contract's examples use.
// An id starts with the time it was made, so that the ids of one account sort in the order they
// were made: each insert lands at the end of its table's B-tree instead of at a random place,
// which kept the tables' pages splitting under load.
// node:crypto as CommonJS would take it: its ESM namespace loads X.509 and WebCrypto at start.
const { randomBytes } = process.getBuiltinModule("node:crypto");

/** Random bytes drawn 12 at a time from a pool refilled 4 KiB at once: one system call per 341 ids. */
const POOL_BYTES = 4096 - (4096 % 12);
let pool = Buffer.alloc(0);
let used = POOL_BYTES;

export function newId(prefix: "cp" | "ps" | "txn" | "msg"): string {
  if (used === POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += 12;
  // Base 36 keeps the time's order as text (SQLite compares bytes); 9 digits last until 5188.
  return `${prefix}_${Date.now().toString(36).padStart(9, "0")}${pool.toString("base64url", used - 12, used)}`;
}

/** A Standard Webhooks signing secret: `whsec_` and 24 random key bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
