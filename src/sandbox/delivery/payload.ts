// The body a delivery sends: the stored event as the contract's envelope, made by the builder
// the conformance kit's receiver checks share (../../lib/event-payload.ts). Made from facts that
// never change once the event is, so the dashboard rebuilds the body every attempt of it sent.
import { eventPayload, type EventFacts } from "../../lib/event-payload.ts";
import { isoTime } from "../../lib/time.ts";

/** An event's facts as the outbox keeps them: its time on its account's clock rather than as text. */
export type PayloadFacts = Omit<EventFacts, "timestamp"> & { createdAtMs: number };

/** The envelope as JSON text, the same on every attempt. */
export const payloadOf = (event: PayloadFacts): string => eventPayload({ ...event, timestamp: isoTime(event.createdAtMs) });
