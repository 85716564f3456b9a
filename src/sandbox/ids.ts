// Identifiers and secrets, random and URL-safe, with the prefixes the contract's examples use.
// node:crypto as CommonJS would take it: its ESM namespace loads X.509 and WebCrypto at start.
const { randomBytes } = process.getBuiltinModule("node:crypto");

export const newId = (prefix: "cp" | "ps" | "txn") => `${prefix}_${randomBytes(12).toString("base64url")}`;

/** A Standard Webhooks signing secret: `whsec_` and 24 random key bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
