/**
 * Whether two strings are equal, in a time that does not depend on where they differ, so that
 * a sender cannot find a valid signature one character at a time. Plain JavaScript on every
 * runtime: node:crypto's timingSafeEqual needs two Buffers made per call, which cost ten times
 * this loop over a 47-character signature.
 */
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
export function constantTimeEqual(a: string, b: string): boolean {
  if (stryMutAct_9fa48("17")) {
    {}
  } else {
    stryCov_9fa48("17");
    // Without this, a prefix of the expected signature (even an empty one) would match.
    if (stryMutAct_9fa48("20") ? a.length === b.length : stryMutAct_9fa48("19") ? false : stryMutAct_9fa48("18") ? true : (stryCov_9fa48("18", "19", "20"), a.length !== b.length)) return stryMutAct_9fa48("21") ? true : (stryCov_9fa48("21"), false);
    let diff = 0;
    for (let i = 0; stryMutAct_9fa48("24") ? i >= a.length : stryMutAct_9fa48("23") ? i <= a.length : stryMutAct_9fa48("22") ? false : (stryCov_9fa48("22", "23", "24"), i < a.length); stryMutAct_9fa48("25") ? i-- : (stryCov_9fa48("25"), i++)) stryMutAct_9fa48("26") ? diff &= a.charCodeAt(i) ^ b.charCodeAt(i) : (stryCov_9fa48("26"), diff |= a.charCodeAt(i) ^ b.charCodeAt(i));
    return stryMutAct_9fa48("29") ? diff !== 0 : stryMutAct_9fa48("28") ? false : stryMutAct_9fa48("27") ? true : (stryCov_9fa48("27", "28", "29"), diff === 0);
  }
}