// HMAC-SHA256 as base64, and a constant-time comparison: node:crypto where the runtime has it
// (several times faster than WebCrypto's promise round-trip), WebCrypto everywhere else.
import type * as NodeCrypto from "node:crypto";

export interface Hmac {
  /** Base64 HMAC-SHA256 of the message parts, in order, under the key. */
  sign(key: Uint8Array, parts: ReadonlyArray<string | Uint8Array>): string | Promise<string>;
  /** Whether two strings are equal, taking the same time wherever they differ. */
  equal(a: string, b: string): boolean;
}

const encoder = new TextEncoder();

// Importing a key costs several times the HMAC of a 1 KB body; a receiver reuses one secret.
const cryptoKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

export const webCryptoHmac: Hmac = {
  async sign(key, parts) {
    let cryptoKey = cryptoKeys.get(key);
    if (!cryptoKey) {
      cryptoKey = crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      cryptoKeys.set(key, cryptoKey);
    }
    const bytes = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
    const message = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
    bytes.reduce((offset, b) => (message.set(b, offset), offset + b.length), 0);
    return bytesToBase64(new Uint8Array(await crypto.subtle.sign("HMAC", await cryptoKey, message)));
  },
  equal(a, b) {
    if (a.length !== b.length) return false;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
  },
};

function nodeHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  const keyObjects = new WeakMap<Uint8Array, NodeCrypto.KeyObject>();
  return {
    sign(key, parts) {
      let keyObject = keyObjects.get(key);
      if (!keyObject) keyObjects.set(key, (keyObject = nodeCrypto.createSecretKey(key)));
      const hmac = nodeCrypto.createHmac("sha256", keyObject);
      for (const part of parts) hmac.update(part);
      return hmac.digest("base64");
    },
    equal(a, b) {
      const x = Buffer.from(a);
      const y = Buffer.from(b);
      return x.length === y.length && nodeCrypto.timingSafeEqual(x, y);
    },
  };
}

const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  "node:crypto",
) as typeof NodeCrypto | undefined;

/** The fastest HMAC this runtime has. */
export const defaultHmac: Hmac = nodeCrypto ? nodeHmac(nodeCrypto) : webCryptoHmac;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes strict base64, or returns undefined. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
