// @ts-nocheck
// HMAC-SHA256 on node:crypto. `createHmac` costs about 3 µs a call before it hashes a byte (a
// native object per call); HMAC is two SHA-256 passes over padded keys (RFC 2104), and the
// one-shot `crypto.hash` makes each pass cost little more than its bytes. The pads are made
// once per key. Tests hold both paths equal to `createHmac` on any key and message.
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import type * as NodeCrypto from "node:crypto";
import type { Hmac } from "./hmac.ts";
const BLOCK = 64;
// Messages up to this size reuse one buffer; a larger one gets its own.
const SCRATCH_BYTES = stryMutAct_9fa48("72") ? 16 / 1024 : (stryCov_9fa48("72"), 16 * 1024);
interface Pads {
  /** The key XOR 0x36, to which the message is appended. */
  inner: Buffer;
  /** The key XOR 0x5c, followed by room for the inner digest. */
  outer: Buffer;
}
export function nodeHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  if (stryMutAct_9fa48("73")) {
    {}
  } else {
    stryCov_9fa48("73");
    return (stryMutAct_9fa48("76") ? typeof nodeCrypto.hash !== "function" : stryMutAct_9fa48("75") ? false : stryMutAct_9fa48("74") ? true : (stryCov_9fa48("74", "75", "76"), typeof nodeCrypto.hash === (stryMutAct_9fa48("77") ? "" : (stryCov_9fa48("77"), "function")))) ? oneShotHmac(nodeCrypto) : keyObjectHmac(nodeCrypto);
  }
}

/** HMAC from two one-shot hashes (Node ≥ 20.12). */
export function oneShotHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  if (stryMutAct_9fa48("78")) {
    {}
  } else {
    stryCov_9fa48("78");
    const pads = new WeakMap<Uint8Array, Pads>();
    const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
    const padsOf = (key: Uint8Array): Pads => {
      if (stryMutAct_9fa48("79")) {
        {}
      } else {
        stryCov_9fa48("79");
        // A key longer than a block is hashed first (RFC 2104, section 2).
        const short = (stryMutAct_9fa48("83") ? key.length <= BLOCK : stryMutAct_9fa48("82") ? key.length >= BLOCK : stryMutAct_9fa48("81") ? false : stryMutAct_9fa48("80") ? true : (stryCov_9fa48("80", "81", "82", "83"), key.length > BLOCK)) ? Buffer.from(nodeCrypto.hash(stryMutAct_9fa48("84") ? "" : (stryCov_9fa48("84"), "sha256"), key, stryMutAct_9fa48("85") ? "" : (stryCov_9fa48("85"), "hex")), stryMutAct_9fa48("86") ? "" : (stryCov_9fa48("86"), "hex")) : key;
        const inner = Buffer.alloc(BLOCK, 0x36);
        const outer = Buffer.alloc(stryMutAct_9fa48("87") ? BLOCK - 32 : (stryCov_9fa48("87"), BLOCK + 32), 0x5c);
        for (let i = 0; stryMutAct_9fa48("90") ? i >= short.length : stryMutAct_9fa48("89") ? i <= short.length : stryMutAct_9fa48("88") ? false : (stryCov_9fa48("88", "89", "90"), i < short.length); stryMutAct_9fa48("91") ? i-- : (stryCov_9fa48("91"), i++)) {
          if (stryMutAct_9fa48("92")) {
            {}
          } else {
            stryCov_9fa48("92");
            inner[i]! ^= short[i]!;
            outer[i]! ^= short[i]!;
          }
        }
        return stryMutAct_9fa48("93") ? {} : (stryCov_9fa48("93"), {
          inner,
          outer
        });
      }
    };
    return stryMutAct_9fa48("94") ? {} : (stryCov_9fa48("94"), {
      sign(key, parts) {
        if (stryMutAct_9fa48("95")) {
          {}
        } else {
          stryCov_9fa48("95");
          let pad = pads.get(key);
          if (stryMutAct_9fa48("98") ? false : stryMutAct_9fa48("97") ? true : stryMutAct_9fa48("96") ? pad : (stryCov_9fa48("96", "97", "98"), !pad)) if (stryMutAct_9fa48("99")) {
            ;
          } else {
            stryCov_9fa48("99");
            pads.set(key, pad = padsOf(key));
          }
          // UTF-8 takes at most three bytes per UTF-16 code unit.
          const size = parts.reduce(stryMutAct_9fa48("100") ? () => undefined : (stryCov_9fa48("100"), (n, p) => stryMutAct_9fa48("101") ? n - (typeof p === "string" ? 3 * p.length : p.length) : (stryCov_9fa48("101"), n + ((stryMutAct_9fa48("104") ? typeof p !== "string" : stryMutAct_9fa48("103") ? false : stryMutAct_9fa48("102") ? true : (stryCov_9fa48("102", "103", "104"), typeof p === (stryMutAct_9fa48("105") ? "" : (stryCov_9fa48("105"), "string")))) ? stryMutAct_9fa48("106") ? 3 / p.length : (stryCov_9fa48("106"), 3 * p.length) : p.length))), BLOCK);
          // Stryker disable next-line EqualityOperator: at exactly the scratch size either buffer fits.
          const message = (stryMutAct_9fa48("108") ? false : stryMutAct_9fa48("107") ? true : (stryCov_9fa48("107", "108"), size <= scratch.length)) ? scratch : Buffer.allocUnsafe(size);
          if (stryMutAct_9fa48("111")) {
            ;
          } else {
            stryCov_9fa48("111");
            pad.inner.copy(message);
          }
          let end = BLOCK;
          for (const part of parts) {
            if (stryMutAct_9fa48("112")) {
              {}
            } else {
              stryCov_9fa48("112");
              if (stryMutAct_9fa48("115") ? typeof part !== "string" : stryMutAct_9fa48("114") ? false : stryMutAct_9fa48("113") ? true : (stryCov_9fa48("113", "114", "115"), typeof part === (stryMutAct_9fa48("116") ? "" : (stryCov_9fa48("116"), "string")))) stryMutAct_9fa48("117") ? end -= message.write(part, end, "utf8") : (stryCov_9fa48("117"), end += message.write(part, end, stryMutAct_9fa48("118") ? "" : (stryCov_9fa48("118"), "utf8")));else end = (message.set(part, end), stryMutAct_9fa48("119") ? end - part.length : (stryCov_9fa48("119"), end + part.length));
            }
          }
          // "binary" (latin1) carries the digest's bytes as they are, without the cost of a Buffer.
          pad.outer.write(nodeCrypto.hash(stryMutAct_9fa48("121") ? "" : (stryCov_9fa48("121"), "sha256"), message.subarray(0, end), stryMutAct_9fa48("122") ? "" : (stryCov_9fa48("122"), "binary")), BLOCK, stryMutAct_9fa48("123") ? "" : (stryCov_9fa48("123"), "binary"));
          return nodeCrypto.hash(stryMutAct_9fa48("124") ? "" : (stryCov_9fa48("124"), "sha256"), pad.outer, stryMutAct_9fa48("125") ? "" : (stryCov_9fa48("125"), "base64"));
        }
      }
    });
  }
}

/** HMAC from `createHmac`, for Node releases without `crypto.hash`. */
export function keyObjectHmac(nodeCrypto: typeof NodeCrypto): Hmac {
  if (stryMutAct_9fa48("126")) {
    {}
  } else {
    stryCov_9fa48("126");
    const keyObjects = new WeakMap<Uint8Array, NodeCrypto.KeyObject>();
    return stryMutAct_9fa48("127") ? {} : (stryCov_9fa48("127"), {
      sign(key, parts) {
        if (stryMutAct_9fa48("128")) {
          {}
        } else {
          stryCov_9fa48("128");
          let keyObject = keyObjects.get(key);
          if (stryMutAct_9fa48("131") ? false : stryMutAct_9fa48("130") ? true : stryMutAct_9fa48("129") ? keyObject : (stryCov_9fa48("129", "130", "131"), !keyObject)) if (stryMutAct_9fa48("132")) {
            ;
          } else {
            stryCov_9fa48("132");
            keyObjects.set(key, keyObject = nodeCrypto.createSecretKey(key));
          }
          const hmac = nodeCrypto.createHmac(stryMutAct_9fa48("133") ? "" : (stryCov_9fa48("133"), "sha256"), keyObject);
          for (const part of parts) if (stryMutAct_9fa48("134")) {
            ;
          } else {
            stryCov_9fa48("134");
            hmac.update(part);
          }
          return hmac.digest(stryMutAct_9fa48("135") ? "" : (stryCov_9fa48("135"), "base64"));
        }
      }
    });
  }
}