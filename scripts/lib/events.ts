// The webhook events as the bundled AsyncAPI document declares them: one `send` operation per
// event, whose message is named as the source names the event and whose payload is that event's
// schema (the same schema file the OpenAPI webhook uses, its title the component's name); and the
// flows of its `x-flows`, each an ordered list of those names.
import { resolveRef, type Json } from "../../src/lib/json.ts";

export interface EventEntry {
  /** The event name, as the source spells it: `session-created`. */
  type: string;
  /** The component schema of the event: `SessionCreatedEvent`. */
  schemaName: string;
  /** What its data says: the object whose change it announces, the status that object moved to, and the fields it carries. */
  rule: EventRule;
}

export interface EventRule {
  about: "session" | "transaction";
  status: string;
  fields: string[];
}

/** A flow's name (`success`) and its events, in their typical order. */
export type EventFlows = Record<string, readonly string[]>;

export function eventEntries(asyncapiBundle: Json): EventEntry[] {
  return Object.values<Json>(asyncapiBundle.operations)
    .filter((operation) => operation.action === "send")
    .map((operation) => {
      const [message, ...more] = operation.messages.map((ref: Json) => resolveRef(asyncapiBundle, ref));
      if (!message || more.length) throw new Error(`AsyncAPI: ${operation.title} must send exactly one message, one event`);
      return { type: message.name, schemaName: message.payload.title, rule: eventRule(asyncapiBundle, message.name, message.payload) };
    });
}

/** Every branch of a schema's `allOf`s, its own properties included, `$ref`s followed. */
function branches(doc: Json, schema: Json): Json[] {
  const at = resolveRef(doc, schema);
  return [at, ...(at.allOf ?? []).flatMap((branch: Json) => branches(doc, branch))];
}

/**
 * An event's rule, read from its payload's schema: the fields its `data` may carry, the `status`
 * its data always has (a `const`), and what changed: a transaction when it names one, else its session.
 */
function eventRule(doc: Json, type: string, payload: Json): EventRule {
  const data = branches(doc, payload).flatMap((branch) => (branch.properties?.data ? branches(doc, branch.properties.data) : []));
  const fields = [...new Set(data.flatMap((branch) => Object.keys(branch.properties ?? {})))];
  const status = data.map((branch) => resolveRef(doc, branch.properties?.status ?? {}).const).find((value) => value !== undefined);
  if (typeof status !== "string") throw new Error(`AsyncAPI: ${type}'s data must give its status as a const: the state it announces`);
  return { about: fields.includes("transaction_id") ? "transaction" : "session", status, fields };
}

/** The document's flows, each event one the document sends and every event in some flow (its rank comes from them). */
export function eventFlows(asyncapiBundle: Json, events: ReadonlyArray<Pick<EventEntry, "type">>): EventFlows {
  const flows: EventFlows = Object.fromEntries(
    Object.entries<Json>(asyncapiBundle["x-flows"] ?? {}).map(([name, flow]) => [name, flow.events]),
  );
  const types = new Set(events.map((e) => e.type));
  for (const [name, flow] of Object.entries(flows))
    for (const type of flow) if (!types.has(type)) throw new Error(`AsyncAPI x-flows.${name}: ${type} is no event of the document`);
  const inFlows = new Set(Object.values(flows).flat());
  for (const { type } of events) if (!inFlows.has(type)) throw new Error(`AsyncAPI x-flows: ${type} is in no flow, so it has no rank`);
  return flows;
}

/**
 * Each event's rank: the length of the longest chain of events the flows send before it. An
 * event follows, in some flow, only events of a lower rank, so a session's events happen in an
 * order the state machines allow when, by time, their ranks never go down.
 */
export function eventRanks(events: ReadonlyArray<Pick<EventEntry, "type">>, flows: EventFlows): Map<string, number> {
  const rank = new Map(events.map((e) => [e.type, 0]));
  // Each round lengthens every chain by at least one event, or changes nothing: more rounds than
  // events means a chain that goes round, two flows that order some events both ways.
  for (let round = 0; round <= events.length; round++) {
    let changed = false;
    for (const flow of Object.values(flows))
      for (const [i, type] of flow.entries()) {
        const after = i === 0 ? 0 : rank.get(flow[i - 1]!)! + 1;
        if (after > rank.get(type)!) {
          rank.set(type, after);
          changed = true;
        }
      }
    if (!changed) return rank;
  }
  throw new Error("AsyncAPI x-flows: the flows order some events both ways");
}
