// Which of an account's events its dashboard lists: by type, outcome and session, from the query
// of the page's GET (`?type=…&outcome=failed&session=ps_…`). A value that cannot be one is named
// with what it must be, and that part of the filter is left out, so that the page still shows.
import { EVENT_TYPES, type PayinEvent } from "../../../../generated/event-types.ts";
import { operations } from "../../../../generated/sandbox-requests.js";
import { couldBeId } from "../../../lib/ids.ts";
import type { ProblemFieldError as FieldError } from "../../../lib/problem.ts";
import { OUTCOMES, type EventFilter, type Outcome } from "../../store/event-log.ts";
import { fieldErrors } from "../validation.ts";

/** The filter as the page's query names it, each value valid: what its links and its form carry. */
export interface FilterQuery {
  type?: PayinEvent["type"];
  outcome?: Outcome;
  session?: string;
}

export const FILTER_PARAMETERS = ["type", "outcome", "session"] as const satisfies ReadonlyArray<keyof FilterQuery>;

const oneOf = (values: readonly string[]) => (value: string) => (values.includes(value) ? [] : [`must be one of ${values.join(", ")}`]);
const deliveryLog = operations.find((op) => op.operationId === "listDeliveries")!;

/** What is wrong with each parameter's value; nothing when it is valid. */
const CHECKS: Record<keyof FilterQuery, (value: string) => string[]> = {
  type: oneOf(EVENT_TYPES),
  outcome: oneOf(OUTCOMES),
  // A session's id as the control API's delivery log takes it (GET /_sandbox/v1/deliveries?session_id=), and one the
  // sandbox could have made: any other text has no events, and is not handed to the database.
  session: (value) => {
    const wrong = fieldErrors(deliveryLog.validateParameters, { session_id: value }, "session_id").map((e) => e.message);
    return wrong.length > 0 || couldBeId("ps", value) ? wrong : ["must be a session's id: ps_ then letters, digits, - or _"];
  },
};

/**
 * The filter the query asks for, as far as it is valid: as the page names it and as the event log
 * takes it; and what was wrong with the rest.
 */
export function dashboardFilter(parameters: Record<string, string>): { applied: FilterQuery; filter: EventFilter; errors: FieldError[] } {
  const applied: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const name of FILTER_PARAMETERS) {
    const value = parameters[name];
    // An empty value is the form's "any".
    if (!value) continue;
    const wrong = CHECKS[name](value);
    if (wrong.length === 0) applied[name] = value;
    errors.push(...wrong.map((message) => ({ field: name, message })));
  }
  const { type, outcome, session } = applied as FilterQuery;
  return { applied, filter: { ...(type && { type }), ...(outcome && { outcome }), ...(session && { sessionId: session }) }, errors };
}
