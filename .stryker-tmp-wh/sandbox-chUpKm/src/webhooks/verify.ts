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
import type { PayinEvent } from "../../generated/events.ts";
import { constantTimeEqual } from "./constant-time.ts";
import { WebhookVerificationError } from "./errors.ts";
import { headerValue, type WebhookHeaders } from "./headers.ts";
import { defaultHmac, type Hmac } from "./hmac.ts";
import { parseEvent } from "./parse.ts";
import { secretKey } from "./secret.ts";
import { signature, unixSeconds } from "./sign.ts";
export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The current time, for tests: a Date, or seconds since the Unix epoch. */
  now?: Date | number;
  /** @internal The HMAC implementation; tests use it to check the WebCrypto path on Node. */
  hmac?: Hmac;
}
const TIMESTAMP = stryMutAct_9fa48("273") ? /^[^0-9]{1,12}$/ : stryMutAct_9fa48("272") ? /^[0-9]$/ : stryMutAct_9fa48("271") ? /^[0-9]{1,12}/ : stryMutAct_9fa48("270") ? /[0-9]{1,12}$/ : (stryCov_9fa48("270", "271", "272", "273"), /^[0-9]{1,12}$/);

/**
 * Verifies a webhook delivery and returns its event, typed as `PayinEvent`.
 *
 * Checks, in order: the three Standard Webhooks headers are present; the timestamp is within
 * the tolerance; one of the `v1` signatures is the HMAC of `id.timestamp.body` under the
 * secret (compared in constant time); the body is JSON and valid against its event's schema;
 * its `id` is the `webhook-id`. Throws `WebhookVerificationError` with a `code` otherwise.
 *
 * Pass the raw body exactly as received (string or bytes), not a re-serialized object.
 */
export async function verifyWebhook(payload: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string, options: VerifyWebhookOptions = {}): Promise<PayinEvent> {
  if (stryMutAct_9fa48("274")) {
    {}
  } else {
    stryCov_9fa48("274");
    const body = payload instanceof ArrayBuffer ? new Uint8Array(payload) : payload;
    if (stryMutAct_9fa48("277") ? typeof body !== "string" || !(body instanceof Uint8Array) : stryMutAct_9fa48("276") ? false : stryMutAct_9fa48("275") ? true : (stryCov_9fa48("275", "276", "277"), (stryMutAct_9fa48("279") ? typeof body === "string" : stryMutAct_9fa48("278") ? true : (stryCov_9fa48("278", "279"), typeof body !== (stryMutAct_9fa48("280") ? "" : (stryCov_9fa48("280"), "string")))) && (stryMutAct_9fa48("281") ? body instanceof Uint8Array : (stryCov_9fa48("281"), !(body instanceof Uint8Array))))) throw new WebhookVerificationError(stryMutAct_9fa48("283") ? "" : (stryCov_9fa48("283"), "invalid_payload"), stryMutAct_9fa48("284") ? "" : (stryCov_9fa48("284"), "The body must be the raw request body, as a string or bytes."));
    const key = secretKey(secret);
    const id = required(headers, stryMutAct_9fa48("285") ? "" : (stryCov_9fa48("285"), "webhook-id"));
    const timestamp = required(headers, stryMutAct_9fa48("286") ? "" : (stryCov_9fa48("286"), "webhook-timestamp"));
    const signatures = required(headers, stryMutAct_9fa48("287") ? "" : (stryCov_9fa48("287"), "webhook-signature"));
    if (stryMutAct_9fa48("290") ? false : stryMutAct_9fa48("289") ? true : stryMutAct_9fa48("288") ? TIMESTAMP.test(timestamp) : (stryCov_9fa48("288", "289", "290"), !TIMESTAMP.test(timestamp))) throw new WebhookVerificationError(stryMutAct_9fa48("292") ? "" : (stryCov_9fa48("292"), "invalid_timestamp"), stryMutAct_9fa48("293") ? `` : (stryCov_9fa48("293"), `The webhook-timestamp header is not a Unix time in seconds: ${JSON.stringify(timestamp)}.`));
    const tolerance = stryMutAct_9fa48("294") ? options.toleranceSeconds && 300 : (stryCov_9fa48("294"), options.toleranceSeconds ?? 300);
    const now = unixSeconds(stryMutAct_9fa48("295") ? options.now && new Date() : (stryCov_9fa48("295"), options.now ?? new Date()));
    // A NaN here (an unset environment variable, an invalid Date) would switch the check off.
    if (stryMutAct_9fa48("298") ? !Number.isFinite(tolerance) && tolerance < 0 : stryMutAct_9fa48("297") ? false : stryMutAct_9fa48("296") ? true : (stryCov_9fa48("296", "297", "298"), (stryMutAct_9fa48("299") ? Number.isFinite(tolerance) : (stryCov_9fa48("299"), !Number.isFinite(tolerance))) || (stryMutAct_9fa48("302") ? tolerance >= 0 : stryMutAct_9fa48("301") ? tolerance <= 0 : stryMutAct_9fa48("300") ? false : (stryCov_9fa48("300", "301", "302"), tolerance < 0)))) throw new TypeError(stryMutAct_9fa48("304") ? `` : (stryCov_9fa48("304"), `toleranceSeconds must be a number of seconds ≥ 0, not ${tolerance}`));
    if (stryMutAct_9fa48("307") ? false : stryMutAct_9fa48("306") ? true : stryMutAct_9fa48("305") ? Number.isFinite(now) : (stryCov_9fa48("305", "306", "307"), !Number.isFinite(now))) throw new TypeError(stryMutAct_9fa48("309") ? "" : (stryCov_9fa48("309"), "now must be a valid Date or a number of seconds"));
    const skew = stryMutAct_9fa48("310") ? now + Number(timestamp) : (stryCov_9fa48("310"), now - Number(timestamp));
    if (stryMutAct_9fa48("314") ? skew <= tolerance : stryMutAct_9fa48("313") ? skew >= tolerance : stryMutAct_9fa48("312") ? false : stryMutAct_9fa48("311") ? true : (stryCov_9fa48("311", "312", "313", "314"), skew > tolerance)) throw new WebhookVerificationError(stryMutAct_9fa48("316") ? "" : (stryCov_9fa48("316"), "timestamp_too_old"), stryMutAct_9fa48("317") ? `` : (stryCov_9fa48("317"), `The delivery was signed ${skew} s ago, more than the ${tolerance} s tolerance.`));
    if (stryMutAct_9fa48("321") ? skew >= -tolerance : stryMutAct_9fa48("320") ? skew <= -tolerance : stryMutAct_9fa48("319") ? false : stryMutAct_9fa48("318") ? true : (stryCov_9fa48("318", "319", "320", "321"), skew < (stryMutAct_9fa48("322") ? +tolerance : (stryCov_9fa48("322"), -tolerance)))) throw new WebhookVerificationError(stryMutAct_9fa48("324") ? "" : (stryCov_9fa48("324"), "timestamp_too_new"), stryMutAct_9fa48("325") ? `` : (stryCov_9fa48("325"), `The delivery is signed ${stryMutAct_9fa48("326") ? +skew : (stryCov_9fa48("326"), -skew)} s in the future, more than the ${tolerance} s tolerance.`));
    const hmac = stryMutAct_9fa48("327") ? options.hmac && defaultHmac : (stryCov_9fa48("327"), options.hmac ?? defaultHmac);
    const signed = signature(id, timestamp, body, key, hmac);
    // node:crypto answers synchronously; awaiting only a promise saves a microtask per delivery.
    const expected = (stryMutAct_9fa48("330") ? typeof signed !== "string" : stryMutAct_9fa48("329") ? false : stryMutAct_9fa48("328") ? true : (stryCov_9fa48("328", "329", "330"), typeof signed === (stryMutAct_9fa48("331") ? "" : (stryCov_9fa48("331"), "string")))) ? signed : await signed;
    let matched = stryMutAct_9fa48("332") ? true : (stryCov_9fa48("332"), false);
    // Space-separated; a header repeated by a proxy arrives joined with ", ".
    // Every candidate is compared, so the time does not tell which one matched.
    for (const candidate of signatures.split(stryMutAct_9fa48("334") ? /\S+/ : stryMutAct_9fa48("333") ? /\s/ : (stryCov_9fa48("333", "334"), /\s+/))) matched = stryMutAct_9fa48("337") ? constantTimeEqual(candidate.replace(/,$/, ""), expected) && matched : stryMutAct_9fa48("336") ? false : stryMutAct_9fa48("335") ? true : (stryCov_9fa48("335", "336", "337"), constantTimeEqual(candidate.replace(stryMutAct_9fa48("338") ? /,/ : (stryCov_9fa48("338"), /,$/), stryMutAct_9fa48("339") ? "Stryker was here!" : (stryCov_9fa48("339"), "")), expected) || matched);
    if (stryMutAct_9fa48("342") ? false : stryMutAct_9fa48("341") ? true : stryMutAct_9fa48("340") ? matched : (stryCov_9fa48("340", "341", "342"), !matched)) throw new WebhookVerificationError(stryMutAct_9fa48("344") ? "" : (stryCov_9fa48("344"), "invalid_signature"), stryMutAct_9fa48("345") ? "" : (stryCov_9fa48("345"), "No v1 signature in webhook-signature matches the body under this secret."));
    return parseEvent(body, id);
  }
}
function required(headers: WebhookHeaders, name: string): string {
  if (stryMutAct_9fa48("346")) {
    {}
  } else {
    stryCov_9fa48("346");
    const value = headerValue(headers, name);
    if (stryMutAct_9fa48("349") ? false : stryMutAct_9fa48("348") ? true : stryMutAct_9fa48("347") ? value : (stryCov_9fa48("347", "348", "349"), !value)) throw new WebhookVerificationError(stryMutAct_9fa48("351") ? "" : (stryCov_9fa48("351"), "missing_header"), stryMutAct_9fa48("352") ? `` : (stryCov_9fa48("352"), `The ${name} header is missing.`));
    return value;
  }
}