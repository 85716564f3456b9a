// How a bearer token is kept: only its SHA-256, so that a copy of the database opens no account.
// A token is random enough (an issued one has 256 bits) that no salt or slow hash is needed.
import { createHash } from "node:crypto";

export const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
