// The body a delivery sends: the stored event as the contract's envelope, made by the builder
// the conformance kit's receiver checks share (../../lib/event-payload.ts).
import { eventPayload } from "../../lib/event-payload.ts";
import { isoTime } from "../../lib/time.ts";
import type { DueEvent } from "../store/outbox.ts";

/** The envelope as JSON text, the same on every attempt. */
export const payloadOf = (event: DueEvent): string => eventPayload({ ...event, timestamp: isoTime(event.createdAtMs) });
