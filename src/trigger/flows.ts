// Realistic event sequences built from the contract's example events, with identifiers that
// are fresh for each run and consistent across the flow.
import { EVENT_FLOWS, type EventFlowName } from "../../generated/event-flows.ts";
import { EVENT_TYPES, type PayinEvent, type PayinEventType } from "../../generated/event-types.ts";
import { resolveRef, type Json } from "../lib/json.ts";

/** The event types of a flow name, or of a single event name; undefined for anything else. */
export function eventTypesOf(name: string): readonly PayinEventType[] | undefined {
  if (Object.hasOwn(EVENT_FLOWS, name)) return EVENT_FLOWS[name as EventFlowName];
  return (EVENT_TYPES as readonly string[]).includes(name) ? [name as PayinEventType] : undefined;
}

const randomId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/**
 * The events of a flow: each example event of the contract, with the flow's own session,
 * counterparty, order and transaction identifiers, a new event id, and timestamps a few
 * seconds apart ending now.
 */
export function buildFlow(
  types: readonly PayinEventType[],
  examples: ReadonlyMap<PayinEventType, PayinEvent>,
  now = new Date(),
): PayinEvent[] {
  const ids = {
    session_id: randomId("ps"),
    counterparty_id: randomId("cp"),
    order_id: `ORD-${now.getTime()}`,
    transaction_id: randomId("txn"),
  };
  return types.map((type, i) => {
    const example = examples.get(type);
    if (!example) throw new Error(`The contract has no example of ${type}.`);
    const data: Record<string, unknown> = { ...(example.data as object) };
    for (const key of Object.keys(ids) as Array<keyof typeof ids>) if (key in data) data[key] = ids[key];
    return {
      ...example,
      id: randomId("msg"),
      timestamp: new Date(now.getTime() - (types.length - 1 - i) * 2000).toISOString(),
      data,
    } as PayinEvent;
  });
}

/** The first example of every event, from the bundled OpenAPI document's webhooks. */
export function examplesFrom(openapi: Json): Map<PayinEventType, PayinEvent> {
  return new Map(
    Object.entries<Json>(openapi.webhooks).map(([type, item]) => {
      // The bundle keeps examples as components: `#/components/examples/<Name>`.
      const example = resolveRef(openapi, Object.values<Json>(item.post.requestBody.content["application/json"].examples)[0]!);
      return [type as PayinEventType, example.value as PayinEvent];
    }),
  );
}
