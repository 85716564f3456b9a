/** Base64 of bytes, with the platform's `btoa`. */
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
export function bytesToBase64(bytes: Uint8Array): string {
  if (stryMutAct_9fa48("0")) {
    {}
  } else {
    stryCov_9fa48("0");
    let binary = stryMutAct_9fa48("1") ? "Stryker was here!" : (stryCov_9fa48("1"), "");
    for (const byte of bytes) stryMutAct_9fa48("2") ? binary -= String.fromCharCode(byte) : (stryCov_9fa48("2"), binary += String.fromCharCode(byte));
    return btoa(binary);
  }
}

/** Decodes strict base64 (padded, standard alphabet), or returns undefined. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (stryMutAct_9fa48("3")) {
    {}
  } else {
    stryCov_9fa48("3");
    if (stryMutAct_9fa48("6") ? !/^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 !== 0 : stryMutAct_9fa48("5") ? false : stryMutAct_9fa48("4") ? true : (stryCov_9fa48("4", "5", "6"), (stryMutAct_9fa48("7") ? /^[A-Za-z0-9+/]*={0,2}$/.test(text) : (stryCov_9fa48("7"), !(stryMutAct_9fa48("12") ? /^[A-Za-z0-9+/]*=$/ : stryMutAct_9fa48("11") ? /^[^A-Za-z0-9+/]*={0,2}$/ : stryMutAct_9fa48("10") ? /^[A-Za-z0-9+/]={0,2}$/ : stryMutAct_9fa48("9") ? /^[A-Za-z0-9+/]*={0,2}/ : stryMutAct_9fa48("8") ? /[A-Za-z0-9+/]*={0,2}$/ : (stryCov_9fa48("8", "9", "10", "11", "12"), /^[A-Za-z0-9+/]*={0,2}$/)).test(text))) || (stryMutAct_9fa48("14") ? text.length % 4 === 0 : stryMutAct_9fa48("13") ? false : (stryCov_9fa48("13", "14"), (stryMutAct_9fa48("15") ? text.length * 4 : (stryCov_9fa48("15"), text.length % 4)) !== 0)))) return undefined;
    return Uint8Array.from(atob(text), stryMutAct_9fa48("16") ? () => undefined : (stryCov_9fa48("16"), c => c.charCodeAt(0)));
  }
}