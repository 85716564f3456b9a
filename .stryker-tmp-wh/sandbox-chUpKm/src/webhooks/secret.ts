// @ts-nocheck
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
import { WebhookVerificationError } from "./errors.ts";
import { base64ToBytes } from "./base64.ts";
const PREFIX = stryMutAct_9fa48("225") ? "" : (stryCov_9fa48("225"), "whsec_");
let last: {
  secret: string;
  key: Uint8Array;
} | undefined;

/** The HMAC key of a Standard Webhooks secret (`whsec_` + base64; the prefix may be left off). */
export function secretKey(secret: string): Uint8Array {
  if (stryMutAct_9fa48("226")) {
    {}
  } else {
    stryCov_9fa48("226");
    // Checked first: an unset secret (`process.env.X` is undefined) would otherwise equal the
    // cached secret of a process that has verified nothing yet.
    if (stryMutAct_9fa48("229") ? typeof secret === "string" : stryMutAct_9fa48("228") ? false : stryMutAct_9fa48("227") ? true : (stryCov_9fa48("227", "228", "229"), typeof secret !== (stryMutAct_9fa48("230") ? "" : (stryCov_9fa48("230"), "string")))) throw new WebhookVerificationError(stryMutAct_9fa48("232") ? "" : (stryCov_9fa48("232"), "invalid_secret"), stryMutAct_9fa48("233") ? `` : (stryCov_9fa48("233"), `The signing secret is ${(stryMutAct_9fa48("236") ? secret !== null : stryMutAct_9fa48("235") ? false : stryMutAct_9fa48("234") ? true : (stryCov_9fa48("234", "235", "236"), secret === null)) ? stryMutAct_9fa48("237") ? "" : (stryCov_9fa48("237"), "null") : typeof secret}, not a string: is it configured?`));
    // A receiver verifies every delivery with the same secret: decode it once.
    if (stryMutAct_9fa48("240") ? last?.secret !== secret : stryMutAct_9fa48("239") ? false : stryMutAct_9fa48("238") ? true : (stryCov_9fa48("238", "239", "240"), (stryMutAct_9fa48("241") ? last.secret : (stryCov_9fa48("241"), last?.secret)) === secret)) return last.key;
    const key = base64ToBytes((stryMutAct_9fa48("242") ? secret.endsWith(PREFIX) : (stryCov_9fa48("242"), secret.startsWith(PREFIX))) ? stryMutAct_9fa48("243") ? secret : (stryCov_9fa48("243"), secret.slice(PREFIX.length)) : secret);
    if (stryMutAct_9fa48("246") ? false : stryMutAct_9fa48("245") ? true : stryMutAct_9fa48("244") ? key?.length : (stryCov_9fa48("244", "245", "246"), !(stryMutAct_9fa48("247") ? key.length : (stryCov_9fa48("247"), key?.length)))) throw new WebhookVerificationError(stryMutAct_9fa48("249") ? "" : (stryCov_9fa48("249"), "invalid_secret"), stryMutAct_9fa48("250") ? "" : (stryCov_9fa48("250"), "The signing secret must be `whsec_` followed by base64, as POST /webhooks returns it."));
    last = stryMutAct_9fa48("251") ? {} : (stryCov_9fa48("251"), {
      secret,
      key
    });
    return key;
  }
}