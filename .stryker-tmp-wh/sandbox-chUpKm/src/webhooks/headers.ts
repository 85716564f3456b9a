/** Headers as frameworks hand them over: WHATWG `Headers`, or a plain object in any case. */
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
export type WebhookHeaders = {
  get(name: string): string | null;
} | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The value of a header by its lower-case name, or undefined. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (stryMutAct_9fa48("57")) {
    {}
  } else {
    stryCov_9fa48("57");
    if (stryMutAct_9fa48("60") ? typeof headers.get !== "function" : stryMutAct_9fa48("59") ? false : stryMutAct_9fa48("58") ? true : (stryCov_9fa48("58", "59", "60"), typeof headers.get === (stryMutAct_9fa48("61") ? "" : (stryCov_9fa48("61"), "function")))) return stryMutAct_9fa48("62") ? (headers as Headers).get(name) && undefined : (stryCov_9fa48("62"), (headers as Headers).get(name) ?? undefined);
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
    // Node gives lower-case names; anything else (Express mocks, hand-made objects) may not.
    let value = record[name];
    if (stryMutAct_9fa48("65") ? value !== undefined : stryMutAct_9fa48("64") ? false : stryMutAct_9fa48("63") ? true : (stryCov_9fa48("63", "64", "65"), value === undefined)) {
      if (stryMutAct_9fa48("66")) {
        {}
      } else {
        stryCov_9fa48("66");
        for (const key of Object.keys(record)) if (stryMutAct_9fa48("69") ? key.toLowerCase() !== name : stryMutAct_9fa48("68") ? false : stryMutAct_9fa48("67") ? true : (stryCov_9fa48("67", "68", "69"), (stryMutAct_9fa48("70") ? key.toUpperCase() : (stryCov_9fa48("70"), key.toLowerCase())) === name)) value = record[key];
      }
    }
    return Array.isArray(value) ? value.join(stryMutAct_9fa48("71") ? "" : (stryCov_9fa48("71"), " ")) : value as string | undefined;
  }
}