// Identifiers and secrets, random and URL-safe, with the prefixes the contract's examples use.
// An id starts with the time it was made, so that the ids of one account sort in the order they
// were made: each insert lands at the end of its table's B-tree instead of at a random place,
// which kept the tables' pages splitting under load.
import { randomBytes } from "node:crypto";

/** What each kind of id starts with: a counterparty, a session, a transaction, an event, a fault, a listener's delivery. */
export type IdPrefix = "cp" | "ps" | "txn" | "msg" | "flt" | "dlv";

export function newId(prefix: IdPrefix): string {
  // Base 36 keeps the time's order as text (SQLite compares bytes); 9 digits last until 5188.
  return `${prefix}_${Date.now().toString(36).padStart(9, "0")}${randomBytes(12).toString("base64url")}`;
}

/**
 * Whether `text` could be an id that `newId(prefix)` made, in this version or an earlier one (whose ids had no time in
 * front): its prefix, then base64url, 64 characters at most as the contract's ids. Any other text (a NUL, a character
 * the percent-decoding of a path could not make UTF-8 of, another kind's prefix) is no id the sandbox has, answered so
 * without asking the database, which may refuse the text outright (PostgreSQL takes no NUL in text).
 */
export function couldBeId(prefix: IdPrefix, text: string): boolean {
  return text.length <= 64 && text.startsWith(`${prefix}_`) && /^[A-Za-z0-9_-]+$/.test(text.slice(prefix.length + 1));
}

/** A Standard Webhooks signing secret: `whsec_` and 24 random key bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
