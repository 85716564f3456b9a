// HMAC-SHA256 through WebCrypto, for runtimes without node:crypto.
import type { Hmac } from "./hmac.ts";
import { bytesToBase64 } from "./base64.ts";

const encoder = new TextEncoder();

// Importing a key costs several times the HMAC of a 1 KB body; a receiver reuses one secret.
const cryptoKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

export const webCryptoHmac: Hmac = {
  async sign(key, parts) {
    let cryptoKey = cryptoKeys.get(key);
    // Stryker disable next-line ConditionalExpression: as `true`, the key is imported again, the same; the cache only saves time (`false` fails every test).
    if (!cryptoKey) {
      // Stryker disable next-line BooleanLiteral: an extractable key signs alike; not extractable is only the safer default.
      cryptoKey = crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      // Stryker disable next-line CallExpression: without the cache, the key is imported each time, the same; it only saves time.
      cryptoKeys.set(key, cryptoKey);
    }
    const bytes = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
    const message = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
    bytes.reduce((offset, b) => (message.set(b, offset), offset + b.length), 0);
    return bytesToBase64(new Uint8Array(await crypto.subtle.sign("HMAC", await cryptoKey, message)));
  },
};
