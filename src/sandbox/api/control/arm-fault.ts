// POST /_sandbox/v1/faults: arms a fault on the caller's account. The schema takes each field;
// `check` holds the rules between them, and that a status fault answers only what the
// operation documents for the server's own conditions.
import { operations } from "../../../../generated/sandbox-requests.js";
import { accountNow } from "../../flow/clock.ts";
import { isoTime } from "../../../lib/time.ts";
import type { Operation } from "../operation.ts";
import type { FaultRow, FaultSpec } from "../../store/faults.ts";
import { SERVER_CONDITIONS, validationProblem, type ProblemFieldError as FieldError } from "../../../lib/problem.ts";
import { refusal } from "../answer.ts";

/** Faults armed on one account at most: each request of the account reads them all. */
const MAX_FAULTS = 100;
const REQUEST_EFFECTS = ["status", "delay", "drop"];
const DELIVERY_EFFECTS = ["duplicate", "shuffle", "delay"];
const contractOperations = operations.filter((op) => op.document === "contract");

/** The fault as the control API shows it. */
export function fault(row: FaultRow) {
  return {
    id: row.id,
    target: row.target,
    effect: row.effect,
    ...(row.operation_id === null ? {} : { operation_id: row.operation_id }),
    ...(row.status === null ? {} : { status: row.status }),
    ...(row.retry_after_seconds === null ? {} : { retry_after_seconds: row.retry_after_seconds }),
    ...(row.delay_ms === null ? {} : { delay_ms: row.delay_ms }),
    ...(row.times_left === null ? {} : { times_left: row.times_left }),
    ...(row.share === null ? {} : { share: row.share }),
    met: row.met,
    created_at: isoTime(row.created_at_ms),
  };
}

/** Why a status fault cannot answer `status`: one the operation does not document, or one only a request causes. */
function statusError(spec: FaultSpec): string | undefined {
  const status = spec.status!;
  const undocumented = contractOperations.filter(
    (op) => (spec.operation_id === undefined || op.operationId === spec.operation_id) && !op.statuses.includes(String(status)),
  );
  if (undocumented.length > 0)
    return `${undocumented.map((op) => op.operationId).join(", ")} ${undocumented.length === 1 ? "does" : "do"} not document ${status}`;
  const conditions = Object.keys(SERVER_CONDITIONS);
  if (!conditions.includes(String(status)))
    return `must be one of the server's own conditions, ${conditions.join(", ")}: a ${status} comes from the request itself`;
  return undefined;
}

export const armFault: Operation = {
  check(spec: FaultSpec) {
    const errors: FieldError[] = [];
    const onRequest = spec.target === "request";
    const only = (field: keyof FaultSpec, when: boolean, what: string) => {
      if (spec[field] !== undefined && !when) errors.push({ field, message: `is taken only ${what}` });
    };
    if (!(onRequest ? REQUEST_EFFECTS : DELIVERY_EFFECTS).includes(spec.effect))
      errors.push({
        field: "effect",
        message: `must be one of ${(onRequest ? REQUEST_EFFECTS : DELIVERY_EFFECTS).join(", ")} on a ${spec.target}`,
      });
    if (spec.effect === "status" && spec.status === undefined) errors.push({ field: "status", message: "is required with effect status" });
    if (spec.effect === "delay" && spec.delay_ms === undefined)
      errors.push({ field: "delay_ms", message: "is required with effect delay" });
    only("status", spec.effect === "status", "with effect status");
    only("delay_ms", spec.effect === "delay", "with effect delay");
    only("retry_after_seconds", spec.status === 429 || spec.status === 503, "with status 429 or 503");
    only("operation_id", onRequest, "on a request");
    only("times", onRequest, "on a request");
    only("share", onRequest && spec.times === undefined, "on a request, without times");
    const status = spec.effect === "status" && spec.status !== undefined && onRequest ? statusError(spec) : undefined;
    if (status) errors.push({ field: "status", message: status });
    return errors;
  },
  async handle({ account, body }, { store, clock }) {
    const armed = await store.faults.list(account.id);
    if (armed.length >= MAX_FAULTS)
      return refusal(validationProblem([{ field: "target", message: `has ${MAX_FAULTS} faults armed already: clear them first` }]));
    // Delivery faults act together: a second of one effect would do nothing more.
    const same = body.target === "delivery" ? armed.find((f) => f.target === "delivery" && f.effect === body.effect) : undefined;
    if (same)
      return refusal(validationProblem([{ field: "effect", message: `${body.effect} is armed on the deliveries already (${same.id})` }]));
    return { status: 201, body: fault(await store.faults.arm(account.id, body, accountNow(clock, account))) };
  },
};
