// Identifiers and secrets, random and URL-safe, with the prefixes the contract's examples use.
import { randomBytes } from "node:crypto";

export const newId = (prefix: "cp" | "ps" | "txn") => `${prefix}_${randomBytes(12).toString("base64url")}`;

/** A Standard Webhooks signing secret: `whsec_` and 24 random key bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
