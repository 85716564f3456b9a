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
import { defaultHmac, type Hmac } from "./hmac.ts";
import { secretKey } from "./secret.ts";
export interface SignWebhookInput {
  /** The event id, sent as `webhook-id`. */
  id: string;
  /** When the delivery is signed: a Date, or seconds since the Unix epoch. */
  timestamp: Date | number;
  /** The exact body that will be sent. */
  payload: string | Uint8Array;
  /** The `whsec_` signing secret. */
  secret: string;
}

// A type alias, not an interface, so that it fits `WebhookHeaders` (a string-keyed record).
export type SignedWebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};
export const unixSeconds = stryMutAct_9fa48("252") ? () => undefined : (stryCov_9fa48("252"), (() => {
  const unixSeconds = (time: Date | number) => (stryMutAct_9fa48("255") ? typeof time !== "number" : stryMutAct_9fa48("254") ? false : stryMutAct_9fa48("253") ? true : (stryCov_9fa48("253", "254", "255"), typeof time === (stryMutAct_9fa48("256") ? "" : (stryCov_9fa48("256"), "number")))) ? Math.floor(time) : Math.floor(stryMutAct_9fa48("257") ? time.getTime() * 1000 : (stryCov_9fa48("257"), time.getTime() / 1000));
  return unixSeconds;
})());

/** The Standard Webhooks signature (`v1,<base64>`) of one delivery. */
export function signature(id: string, timestamp: string, payload: string | Uint8Array, key: Uint8Array, hmac: Hmac) {
  if (stryMutAct_9fa48("258")) {
    {}
  } else {
    stryCov_9fa48("258");
    const digest = hmac.sign(key, stryMutAct_9fa48("259") ? [] : (stryCov_9fa48("259"), [stryMutAct_9fa48("260") ? `` : (stryCov_9fa48("260"), `${id}.${timestamp}.`), payload]));
    return (stryMutAct_9fa48("263") ? typeof digest !== "string" : stryMutAct_9fa48("262") ? false : stryMutAct_9fa48("261") ? true : (stryCov_9fa48("261", "262", "263"), typeof digest === (stryMutAct_9fa48("264") ? "" : (stryCov_9fa48("264"), "string")))) ? stryMutAct_9fa48("265") ? `` : (stryCov_9fa48("265"), `v1,${digest}`) : digest.then(stryMutAct_9fa48("266") ? () => undefined : (stryCov_9fa48("266"), d => stryMutAct_9fa48("267") ? `` : (stryCov_9fa48("267"), `v1,${d}`)));
  }
}

/** Signs a delivery as the service does, returning the three headers to send with it. */
export async function signWebhook({
  id,
  timestamp,
  payload,
  secret
}: SignWebhookInput): Promise<SignedWebhookHeaders> {
  if (stryMutAct_9fa48("268")) {
    {}
  } else {
    stryCov_9fa48("268");
    const seconds = String(unixSeconds(timestamp));
    return stryMutAct_9fa48("269") ? {} : (stryCov_9fa48("269"), {
      "webhook-id": id,
      "webhook-timestamp": seconds,
      "webhook-signature": await signature(id, seconds, payload, secretKey(secret), defaultHmac)
    });
  }
}