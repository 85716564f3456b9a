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
import { problem, type Problem } from "../lib/problem.ts";

/** Which check of a webhook delivery failed. */
export type WebhookVerificationErrorCode = "invalid_secret" | "missing_header" | "invalid_timestamp" | "timestamp_too_old" | "timestamp_too_new" | "invalid_signature" | "invalid_payload" | "invalid_event";

/** Thrown by `verifyWebhook` for every delivery it does not accept; `code` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = stryMutAct_9fa48("30") ? "" : (stryCov_9fa48("30"), "WebhookVerificationError");
  readonly code: WebhookVerificationErrorCode;
  /** For `invalid_event`: each field that breaks the event's schema. */
  readonly errors: Array<{
    field: string;
    message: string;
  }>;
  constructor(code: WebhookVerificationErrorCode, message: string, errors: Array<{
    field: string;
    message: string;
  }> = stryMutAct_9fa48("31") ? ["Stryker was here"] : (stryCov_9fa48("31"), [])) {
    super(message);
    this.code = code;
    this.errors = errors;
  }

  /**
   * The rejection as the contract's problem details, for a receiver to answer with. A
   * signature or timestamp failure is a 401; a signed body that is not a valid event, a 400;
   * a bad secret is the receiver's own fault, a 500. The service retries any non-2xx answer.
   */
  toProblem(): Problem {
    if (stryMutAct_9fa48("32")) {
      {}
    } else {
      stryCov_9fa48("32");
      const body = stryMutAct_9fa48("35") ? this.code === "invalid_payload" && this.code === "invalid_event" : stryMutAct_9fa48("34") ? false : stryMutAct_9fa48("33") ? true : (stryCov_9fa48("33", "34", "35"), (stryMutAct_9fa48("37") ? this.code !== "invalid_payload" : stryMutAct_9fa48("36") ? false : (stryCov_9fa48("36", "37"), this.code === (stryMutAct_9fa48("38") ? "" : (stryCov_9fa48("38"), "invalid_payload")))) || (stryMutAct_9fa48("40") ? this.code !== "invalid_event" : stryMutAct_9fa48("39") ? false : (stryCov_9fa48("39", "40"), this.code === (stryMutAct_9fa48("41") ? "" : (stryCov_9fa48("41"), "invalid_event")))));
      const status = (stryMutAct_9fa48("44") ? this.code !== "invalid_secret" : stryMutAct_9fa48("43") ? false : stryMutAct_9fa48("42") ? true : (stryCov_9fa48("42", "43", "44"), this.code === (stryMutAct_9fa48("45") ? "" : (stryCov_9fa48("45"), "invalid_secret")))) ? 500 : body ? 400 : 401;
      return problem(stryMutAct_9fa48("46") ? {} : (stryCov_9fa48("46"), {
        status,
        code: stryMutAct_9fa48("47") ? `` : (stryCov_9fa48("47"), `webhook_${this.code}`),
        title: (stryMutAct_9fa48("50") ? status !== 401 : stryMutAct_9fa48("49") ? false : stryMutAct_9fa48("48") ? true : (stryCov_9fa48("48", "49", "50"), status === 401)) ? stryMutAct_9fa48("51") ? "" : (stryCov_9fa48("51"), "Webhook verification failed") : (stryMutAct_9fa48("54") ? status !== 400 : stryMutAct_9fa48("53") ? false : stryMutAct_9fa48("52") ? true : (stryCov_9fa48("52", "53", "54"), status === 400)) ? stryMutAct_9fa48("55") ? "" : (stryCov_9fa48("55"), "Invalid webhook event") : stryMutAct_9fa48("56") ? "" : (stryCov_9fa48("56"), "Webhook receiver misconfigured"),
        detail: this.message,
        errors: this.errors
      }));
    }
  }
}