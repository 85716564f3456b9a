// Identifiers and secrets, random and URL-safe, with the prefixes the contract's examples use.
// An id starts with the time it was made, so that the ids of one account sort in the order they
// were made: each insert lands at the end of its table's B-tree instead of at a random place,
// which kept the tables' pages splitting under load.
import { randomBytes } from "node:crypto";

export function newId(prefix: "cp" | "ps" | "txn" | "msg" | "flt" | "dlv"): string {
  // Base 36 keeps the time's order as text (SQLite compares bytes); 9 digits last until 5188.
  return `${prefix}_${Date.now().toString(36).padStart(9, "0")}${randomBytes(12).toString("base64url")}`;
}

/** A Standard Webhooks signing secret: `whsec_` and 24 random key bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
