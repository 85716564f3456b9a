import type { ValidationError } from "../../generated/event-validators.js";
import { EVENT_VALIDATORS, type PayinEvent, type PayinEventType } from "../../generated/event-types.ts";
import { ajvErrorField } from "../lib/field.ts";
import { WebhookVerificationError } from "./errors.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Parses a verified body and checks it against its event's schema. */
export function parseEvent(payload: string | Uint8Array, webhookId: string): PayinEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof payload === "string" ? payload : decoder.decode(payload));
  } catch (error) {
    throw new WebhookVerificationError("invalid_payload", `The body is not UTF-8 JSON: ${(error as Error).message}`);
  }
  const type = (event as { type?: unknown } | null)?.type;
  if (typeof type !== "string") {
    throw new WebhookVerificationError("invalid_event", "The body has no event type: it is not an event.", [
      { field: "type", message: "must be one of the event types" },
    ]);
  }
  // Authentic, but of a type a later version of the contract added: decision D22 says to
  // acknowledge it and ignore it, which the receiver can do on this code.
  if (!Object.hasOwn(EVENT_VALIDATORS, type)) {
    throw new WebhookVerificationError(
      "unknown_event_type",
      `The event type ${JSON.stringify(type)} is not one this version knows: acknowledge it with 2xx and ignore it.`,
    );
  }
  const validate = EVENT_VALIDATORS[type as PayinEventType];
  if (!validate(event)) {
    // Ajv sets errors whenever a validator returns false.
    const errors = fieldErrors(validate.errors!);
    const list = errors.map((e) => `${e.field} ${e.message}`).join("; ");
    throw new WebhookVerificationError("invalid_event", `The ${type} event breaks its schema: ${list}.`, errors);
  }
  const parsed = event as PayinEvent;
  if (parsed.id !== webhookId) {
    throw new WebhookVerificationError("invalid_event", `The event id ${parsed.id} differs from the webhook-id header ${webhookId}.`, [
      { field: "id", message: "must equal the webhook-id header" },
    ]);
  }
  return parsed;
}

/**
 * The errors in words that name a field once: Ajv's "must have required property 'x'" is said of the field x itself; and
 * a field held to one value (its event's status) is told that value alone, not also the wider rule it breaks (every
 * session's statuses), which said the same line twice.
 */
function fieldErrors(errors: ValidationError[]): Array<{ field: string; message: string }> {
  const named = errors.map((error) => ({ field: ajvErrorField(error) || "(body)", error }));
  const held = new Set(named.filter(({ error }) => error.keyword === "const").map(({ field }) => field));
  return named
    .filter(({ field, error }) => !held.has(field) || error.keyword === "const")
    .map(({ field, error }) => ({ field, message: messageOf(error) }));
}

function messageOf(error: ValidationError): string {
  if (error.keyword === "required") return "is required";
  if (error.keyword === "const") return `must be ${JSON.stringify(error.params.allowedValue)}`;
  // The generated validators give every error a message (messages are on).
  return error.message!;
}
