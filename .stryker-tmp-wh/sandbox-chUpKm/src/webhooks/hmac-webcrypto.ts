// @ts-nocheck
// HMAC-SHA256 through WebCrypto, for runtimes without node:crypto.
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
import type { Hmac } from "./hmac.ts";
import { bytesToBase64 } from "./base64.ts";
const encoder = new TextEncoder();

// Importing a key costs several times the HMAC of a 1 KB body; a receiver reuses one secret.
const cryptoKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
export const webCryptoHmac: Hmac = stryMutAct_9fa48("136") ? {} : (stryCov_9fa48("136"), {
  async sign(key, parts) {
    if (stryMutAct_9fa48("137")) {
      {}
    } else {
      stryCov_9fa48("137");
      let cryptoKey = cryptoKeys.get(key);
      if (stryMutAct_9fa48("140") ? false : stryMutAct_9fa48("139") ? true : stryMutAct_9fa48("138") ? cryptoKey : (stryCov_9fa48("138", "139", "140"), !cryptoKey)) {
        if (stryMutAct_9fa48("141")) {
          {}
        } else {
          stryCov_9fa48("141");
          cryptoKey = crypto.subtle.importKey(stryMutAct_9fa48("142") ? "" : (stryCov_9fa48("142"), "raw"), key as BufferSource, stryMutAct_9fa48("143") ? {} : (stryCov_9fa48("143"), {
            name: stryMutAct_9fa48("144") ? "" : (stryCov_9fa48("144"), "HMAC"),
            hash: stryMutAct_9fa48("145") ? "" : (stryCov_9fa48("145"), "SHA-256")
          }), stryMutAct_9fa48("146") ? true : (stryCov_9fa48("146"), false), stryMutAct_9fa48("147") ? [] : (stryCov_9fa48("147"), [stryMutAct_9fa48("148") ? "" : (stryCov_9fa48("148"), "sign")]));
          if (stryMutAct_9fa48("149")) {
            ;
          } else {
            stryCov_9fa48("149");
            cryptoKeys.set(key, cryptoKey);
          }
        }
      }
      const bytes = parts.map(stryMutAct_9fa48("150") ? () => undefined : (stryCov_9fa48("150"), p => (stryMutAct_9fa48("153") ? typeof p !== "string" : stryMutAct_9fa48("152") ? false : stryMutAct_9fa48("151") ? true : (stryCov_9fa48("151", "152", "153"), typeof p === (stryMutAct_9fa48("154") ? "" : (stryCov_9fa48("154"), "string")))) ? encoder.encode(p) : p));
      const message = new Uint8Array(bytes.reduce(stryMutAct_9fa48("155") ? () => undefined : (stryCov_9fa48("155"), (n, b) => stryMutAct_9fa48("156") ? n - b.length : (stryCov_9fa48("156"), n + b.length)), 0));
      bytes.reduce(stryMutAct_9fa48("158") ? () => undefined : (stryCov_9fa48("158"), (offset, b) => (message.set(b, offset), stryMutAct_9fa48("159") ? offset - b.length : (stryCov_9fa48("159"), offset + b.length))), 0);
      return bytesToBase64(new Uint8Array(await crypto.subtle.sign(stryMutAct_9fa48("160") ? "" : (stryCov_9fa48("160"), "HMAC"), await cryptoKey, message)));
    }
  }
});