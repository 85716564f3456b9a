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
import { EVENT_VALIDATORS, type PayinEvent, type PayinEventType } from "../../generated/events.ts";
import { WebhookVerificationError } from "./errors.ts";
const decoder = new TextDecoder(stryMutAct_9fa48("161") ? "" : (stryCov_9fa48("161"), "utf-8"), stryMutAct_9fa48("162") ? {} : (stryCov_9fa48("162"), {
  fatal: stryMutAct_9fa48("163") ? false : (stryCov_9fa48("163"), true)
}));

/** Parses a verified body and checks it against its event's schema. */
export function parseEvent(payload: string | Uint8Array, webhookId: string): PayinEvent {
  if (stryMutAct_9fa48("164")) {
    {}
  } else {
    stryCov_9fa48("164");
    let event: unknown;
    try {
      if (stryMutAct_9fa48("165")) {
        {}
      } else {
        stryCov_9fa48("165");
        event = JSON.parse((stryMutAct_9fa48("168") ? typeof payload !== "string" : stryMutAct_9fa48("167") ? false : stryMutAct_9fa48("166") ? true : (stryCov_9fa48("166", "167", "168"), typeof payload === (stryMutAct_9fa48("169") ? "" : (stryCov_9fa48("169"), "string")))) ? payload : decoder.decode(payload));
      }
    } catch (error) {
      if (stryMutAct_9fa48("170")) {
        {}
      } else {
        stryCov_9fa48("170");
        if (stryMutAct_9fa48("171")) {
          ;
        } else {
          stryCov_9fa48("171");
          throw new WebhookVerificationError(stryMutAct_9fa48("172") ? "" : (stryCov_9fa48("172"), "invalid_payload"), stryMutAct_9fa48("173") ? `` : (stryCov_9fa48("173"), `The body is not UTF-8 JSON: ${(error as Error).message}`));
        }
      }
    }
    const type = stryMutAct_9fa48("174") ? (event as {
      type?: unknown;
    } | null).type : (stryCov_9fa48("174"), (event as {
      type?: unknown;
    } | null)?.type);
    const validate = (stryMutAct_9fa48("177") ? typeof type === "string" || Object.hasOwn(EVENT_VALIDATORS, type) : stryMutAct_9fa48("176") ? false : stryMutAct_9fa48("175") ? true : (stryCov_9fa48("175", "176", "177"), (stryMutAct_9fa48("179") ? typeof type !== "string" : stryMutAct_9fa48("178") ? true : (stryCov_9fa48("178", "179"), typeof type === (stryMutAct_9fa48("180") ? "" : (stryCov_9fa48("180"), "string")))) && Object.hasOwn(EVENT_VALIDATORS, type))) ? EVENT_VALIDATORS[type as PayinEventType] : undefined;
    if (stryMutAct_9fa48("183") ? false : stryMutAct_9fa48("182") ? true : stryMutAct_9fa48("181") ? validate : (stryCov_9fa48("181", "182", "183"), !validate)) {
      if (stryMutAct_9fa48("184")) {
        {}
      } else {
        stryCov_9fa48("184");
        throw new WebhookVerificationError(stryMutAct_9fa48("186") ? "" : (stryCov_9fa48("186"), "invalid_event"), stryMutAct_9fa48("187") ? `` : (stryCov_9fa48("187"), `The body's type ${JSON.stringify(type)} is not one of the seven event types.`), stryMutAct_9fa48("188") ? [] : (stryCov_9fa48("188"), [stryMutAct_9fa48("189") ? {} : (stryCov_9fa48("189"), {
          field: stryMutAct_9fa48("190") ? "" : (stryCov_9fa48("190"), "type"),
          message: stryMutAct_9fa48("191") ? "" : (stryCov_9fa48("191"), "must be one of the event types")
        })]));
      }
    }
    if (stryMutAct_9fa48("194") ? false : stryMutAct_9fa48("193") ? true : stryMutAct_9fa48("192") ? validate(event) : (stryCov_9fa48("192", "193", "194"), !validate(event))) {
      if (stryMutAct_9fa48("195")) {
        {}
      } else {
        stryCov_9fa48("195");
        const errors = (stryMutAct_9fa48("196") ? validate.errors && [] : (stryCov_9fa48("196"), validate.errors ?? (stryMutAct_9fa48("197") ? ["Stryker was here"] : (stryCov_9fa48("197"), [])))).map(stryMutAct_9fa48("198") ? () => undefined : (stryCov_9fa48("198"), e => stryMutAct_9fa48("199") ? {} : (stryCov_9fa48("199"), {
          field: stryMutAct_9fa48("202") ? e.instancePath.slice(1).replaceAll("/", ".") && "(body)" : stryMutAct_9fa48("201") ? false : stryMutAct_9fa48("200") ? true : (stryCov_9fa48("200", "201", "202"), (stryMutAct_9fa48("203") ? e.instancePath.replaceAll("/", ".") : (stryCov_9fa48("203"), e.instancePath.slice(1).replaceAll(stryMutAct_9fa48("204") ? "" : (stryCov_9fa48("204"), "/"), stryMutAct_9fa48("205") ? "" : (stryCov_9fa48("205"), ".")))) || (stryMutAct_9fa48("206") ? "" : (stryCov_9fa48("206"), "(body)"))),
          message: stryMutAct_9fa48("207") ? e.message && e.keyword : (stryCov_9fa48("207"), e.message ?? e.keyword)
        })));
        const list = errors.map(stryMutAct_9fa48("208") ? () => undefined : (stryCov_9fa48("208"), e => stryMutAct_9fa48("209") ? `` : (stryCov_9fa48("209"), `${e.field} ${e.message}`))).join(stryMutAct_9fa48("210") ? "" : (stryCov_9fa48("210"), "; "));
        throw new WebhookVerificationError(stryMutAct_9fa48("212") ? "" : (stryCov_9fa48("212"), "invalid_event"), stryMutAct_9fa48("213") ? `` : (stryCov_9fa48("213"), `The ${type} event breaks its schema: ${list}.`), errors);
      }
    }
    const parsed = event as PayinEvent;
    if (stryMutAct_9fa48("216") ? parsed.id === webhookId : stryMutAct_9fa48("215") ? false : stryMutAct_9fa48("214") ? true : (stryCov_9fa48("214", "215", "216"), parsed.id !== webhookId)) {
      if (stryMutAct_9fa48("217")) {
        {}
      } else {
        stryCov_9fa48("217");
        throw new WebhookVerificationError(stryMutAct_9fa48("219") ? "" : (stryCov_9fa48("219"), "invalid_event"), stryMutAct_9fa48("220") ? `` : (stryCov_9fa48("220"), `The event id ${parsed.id} differs from the webhook-id header ${webhookId}.`), stryMutAct_9fa48("221") ? [] : (stryCov_9fa48("221"), [stryMutAct_9fa48("222") ? {} : (stryCov_9fa48("222"), {
          field: stryMutAct_9fa48("223") ? "" : (stryCov_9fa48("223"), "id"),
          message: stryMutAct_9fa48("224") ? "" : (stryCov_9fa48("224"), "must equal the webhook-id header")
        })]));
      }
    }
    return parsed;
  }
}