// What every way into the sandbox answers, whatever carries it: a status, a JSON body or a
// stream, and the headers it needs; and the answer that refuses a request with a problem.
import type { Problem } from "../../lib/problem.ts";
import type { ListenerEvent } from "../delivery/listener-hub.ts";

export interface Answer {
  status: number;
  /** Sent as JSON (a problem document when the status is 4xx or 5xx); none for 204. */
  body?: unknown;
  /** Headers of the answer beyond its content type: `Retry-After`, `Allow`, `WWW-Authenticate`. */
  headers?: Record<string, string>;
  /** In place of a body, a stream of server-sent events (an event, or a comment line as it is), until either side ends it. */
  stream?: AsyncIterable<ListenerEvent | string>;
}

/** An answer that refuses the request: the problem, with its own status, and the headers it needs. */
export const refusal = (body: Problem, headers?: Record<string, string>): Answer => ({
  status: body.status,
  body,
  ...(headers ? { headers } : {}),
});
