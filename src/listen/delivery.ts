// A delivery as the listen stream gives it, taken only as far as it is one: whatever the stream
// sends (a sandbox's, or a forged one that a wrong --base-url reached), what goes to the local
// endpoint is the body as it came with the headers a delivery needs, the three of the signature
// and Content-Type, never another header the stream names (a Cookie, an Authorization would
// reach the developer's own server as if the developer's browser or code had sent them).

/** The headers passed on to the local endpoint, as the sandbox names them: the signature's three, and the body's type. */
export const FORWARDED_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"] as const;

/** A delivery to pass on: its id to answer it by, the headers to send, the body, the event's type, and how long it may take. */
export interface Delivery {
  id: string;
  headers: Record<string, string>;
  body: string;
  /** The event's type, as its body says (for the line it logs and --events). */
  type: string;
  /** How long the sandbox gives the endpoint (its --delivery-timeout); absent from a sandbox older than it. */
  timeoutMs: number | undefined;
}

/** Why a delivery cannot be passed on, with its id when it has one to answer it by. */
export interface Unusable {
  id: string | undefined;
  why: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The delivery in a `delivery` event's data (parsed JSON), or why it is none. */
export function deliveryOf(data: unknown): Delivery | Unusable {
  const id = isObject(data) && typeof data.delivery_id === "string" && data.delivery_id !== "" ? data.delivery_id : undefined;
  if (!isObject(data) || id === undefined) return { id: undefined, why: "it has no delivery_id" };
  if (!isObject(data.headers)) return { id, why: "it has no headers" };
  const given = new Map(Object.entries(data.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = given.get(name);
    if (typeof value === "string") headers[name] = value;
    else if (name !== "content-type") return { id, why: `it has no ${name} header` };
  }
  headers["content-type"] ??= "application/json";
  if (typeof data.body !== "string") return { id, why: "it has no body" };
  let event: unknown;
  try {
    event = JSON.parse(data.body);
  } catch {
    return { id, why: "its body is not JSON" };
  }
  const type = isObject(event) && typeof event.type === "string" ? event.type : "?";
  const timeoutMs = Number.isSafeInteger(data.timeout_ms) && (data.timeout_ms as number) > 0 ? (data.timeout_ms as number) : undefined;
  return { id, headers, body: data.body, type, timeoutMs };
}
