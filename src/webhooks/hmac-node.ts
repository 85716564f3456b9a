// HMAC-SHA256 on node:crypto. `createHmac` costs about 3 µs a call before it hashes a byte (a
// native object per call); HMAC is two SHA-256 passes over padded keys (RFC 2104), and the
// one-shot `crypto.hash` makes each pass cost little more than its bytes. The pads are made
// once per key. Tests hold both paths equal to `createHmac` on any key and message.
import type * as NodeCrypto from "node:crypto";
import type { Hmac } from "./hmac.ts";

const BLOCK = 64;
// Messages up to this size reuse one buffer; a larger one gets its own.
// Stryker disable next-line ArithmeticOperator: any size is correct (a smaller one only allocates more often).
const SCRATCH_BYTES = 16 * 1024;

interface Pads {
  /** The key XOR 0x36, to which the message is appended. */
  inner: Buffer;
  /** The key XOR 0x5c, followed by room for the inner digest. */
  outer: Buffer;
}

export function nodeHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  return typeof nodeCrypto.hash === "function" ? oneShotHmac(nodeCrypto) : keyObjectHmac(nodeCrypto);
}

/** HMAC from two one-shot hashes (Node ≥ 20.12). */
export function oneShotHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  const pads = new WeakMap<Uint8Array, Pads>();
  const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  const padsOf = (key: Uint8Array): Pads => {
    // A key longer than a block is hashed first (RFC 2104, section 2).
    const short = key.length > BLOCK ? Buffer.from(nodeCrypto.hash("sha256", key, "hex"), "hex") : key;
    const inner = Buffer.alloc(BLOCK, 0x36);
    const outer = Buffer.alloc(BLOCK + 32, 0x5c);
    // Stryker disable next-line EqualityOperator: one step more XORs a byte with undefined (0), or writes past the pad, which a Buffer ignores.
    for (let i = 0; i < short.length; i++) {
      inner[i]! ^= short[i]!;
      outer[i]! ^= short[i]!;
    }
    return { inner, outer };
  };
  return {
    sign(key, parts) {
      let pad = pads.get(key);
      // Stryker disable next-line ConditionalExpression: as `true`, the pads are made again, the same; the cache only saves time (`false` fails every test).
      if (!pad) pads.set(key, (pad = padsOf(key)));
      // UTF-8 takes at most three bytes per UTF-16 code unit.
      // Stryker disable next-line ConditionalExpression: as `true`, bytes are counted three times over, a larger estimate, and any larger buffer fits (`false` fails the long-string test).
      const size = parts.reduce((n, p) => n + (typeof p === "string" ? 3 * p.length : p.length), BLOCK);
      // Stryker disable next-line EqualityOperator,ConditionalExpression: at exactly the scratch size either buffer fits; as `false`, every message gets a buffer of its own, the same bytes (`true` fails the large-message tests).
      const message = size <= scratch.length ? scratch : Buffer.allocUnsafe(size);
      pad.inner.copy(message);
      let end = BLOCK;
      for (const part of parts) {
        if (typeof part === "string") end += message.write(part, end, "utf8");
        else end = (message.set(part, end), end + part.length);
      }
      // "binary" (latin1) carries the digest's bytes as they are, without the cost of a Buffer.
      pad.outer.write(nodeCrypto.hash("sha256", message.subarray(0, end), "binary"), BLOCK, "binary");
      return nodeCrypto.hash("sha256", pad.outer, "base64");
    },
  };
}

/** HMAC from `createHmac`, for Node releases without `crypto.hash`. */
export function keyObjectHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  const keyObjects = new WeakMap<Uint8Array, NodeCrypto.KeyObject>();
  return {
    sign(key, parts) {
      let keyObject = keyObjects.get(key);
      // Stryker disable next-line ConditionalExpression: as `true`, a new KeyObject of the same key signs alike; the cache only saves time (`false` fails every test).
      if (!keyObject) keyObjects.set(key, (keyObject = nodeCrypto.createSecretKey(key)));
      const hmac = nodeCrypto.createHmac("sha256", keyObject);
      for (const part of parts) hmac.update(part);
      return hmac.digest("base64");
    },
  };
}
