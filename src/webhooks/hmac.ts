// The HMAC a verifier uses: node:crypto where the runtime has it (several times faster than
// WebCrypto's promise round-trip), WebCrypto everywhere else (browsers, edge runtimes).
import type * as NodeCrypto from "node:crypto";
import { nodeHmac } from "./hmac-node.ts";
import { webCryptoHmac } from "./hmac-webcrypto.ts";

export interface Hmac {
  /** Base64 HMAC-SHA256 of the message parts, in order, under the key. */
  sign(key: Uint8Array, parts: ReadonlyArray<string | Uint8Array>): string | Promise<string>;
}

// Stryker disable next-line OptionalChaining: tests run on Node, where both exist; the chains are for runtimes without them.
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  "node:crypto",
) as typeof NodeCrypto | undefined;

/** The fastest HMAC this runtime has. */
// Stryker disable next-line ConditionalExpression: tests run on Node, where `true` is what runs and `false` picks WebCrypto, which gives the same answers (tests pass it in too).
export const defaultHmac: Hmac = nodeCrypto ? nodeHmac(nodeCrypto) : webCryptoHmac;
