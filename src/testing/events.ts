// Valid events of each type for a merchant's unit tests: built as the service
// builds them (the envelope of ../lib/event-payload.ts, with fresh ids and the time now), then
// changed by the test's overrides and checked against the event's schema, so that a fixture is
// never an event the service could not send.
import { EVENT_VALIDATORS, type PayinEvent, type PayinEventType } from "../../generated/event-types.ts";
import { eventPayload } from "../lib/event-payload.ts";
import { ajvErrorField } from "../lib/field.ts";
import { newId } from "../lib/ids.ts";

/** The event of one type. */
export type EventOf<T extends PayinEventType> = Extract<PayinEvent, { type: T }>;

/** Any part of a value, nested objects included. */
export type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function merged(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(overrides))
    out[key] = isObject(value) && isObject(base[key]) ? merged(base[key] as Record<string, unknown>, value) : value;
  return out;
}

/**
 * A valid event of `type`: a new `msg_` id, the time now, and data about a session (and, for a
 * transaction event, a transaction) of 49.99 EUR; `overrides` changes any field, nested ones
 * too (`{ data: { amount: 10 } }`). Throws, naming each field, when the result is not an event
 * of that type the contract allows.
 */
export function buildEvent<T extends PayinEventType>(type: T, overrides?: DeepPartial<EventOf<T>>): EventOf<T> {
  const validate = EVENT_VALIDATORS[type];
  if (!validate) throw new Error(`buildEvent: ${JSON.stringify(type)} is not an event type of the contract`);
  const base = JSON.parse(
    eventPayload({
      id: newId("msg"),
      type,
      timestamp: new Date().toISOString(),
      sessionId: newId("ps"),
      counterpartyId: newId("cp"),
      request: { order_id: "ORD-2026-000731", amount: 49.99, currency: "EUR" },
      // Each kept only where the type's data has it.
      transactionId: newId("txn"),
      failureReason: "card_declined",
    }),
  );
  const event = merged(base, (overrides ?? {}) as Record<string, unknown>);
  if (!validate(event)) {
    const fields = validate.errors!.map((e) => `${ajvErrorField(e) || "(event)"} ${e.message}`).join("; ");
    throw new Error(`buildEvent(${JSON.stringify(type)}): the overrides make an event its schema refuses: ${fields}`);
  }
  return event as EventOf<T>;
}
