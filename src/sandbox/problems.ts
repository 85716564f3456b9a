// The contract's problem documents (RFC 9457, decision D15) for every rejection the sandbox
// makes, through the package's one problem builder. Each code's title is the one the
// documents' own examples give it, collected at build time.
import { problemTitles } from "../../generated/sandbox-requests.js";
import { problem as buildProblem, type Problem, type ProblemFieldError } from "../lib/problem.ts";

export type { Problem, ProblemFieldError as FieldError };

/** Codes the sandbox answers that no example shows (the contract documents no 405). */
const UNDOCUMENTED_TITLES: Readonly<Record<string, string>> = {
  method_not_allowed: "Method not allowed",
  // Answers to requests node:http could not parse (http.ts).
  request_header_fields_too_large: "Request header fields too large",
  request_timeout: "Request timeout",
};

export function problem(status: number, code: string, detail: string, extra: { errors?: ProblemFieldError[]; existing_id?: string } = {}): Problem {
  const title = problemTitles[code] ?? UNDOCUMENTED_TITLES[code];
  // Stryker disable next-line StringLiteral: a programming error caught when any test first answers with the code
  if (!title) throw new Error(`No document shows a problem with code ${code}.`);
  return buildProblem({ status, code, title, detail, ...extra });
}

export function validationProblem(errors: ProblemFieldError[]): Problem {
  return problem(422, "validation_failed", `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`, { errors });
}

/** A handler's answer that refuses the request: the problem, with its own status. */
export const refusal = (body: Problem) => ({ status: body.status, body });

export const webhookNotRegistered = () => problem(404, "webhook_not_registered", "This account has no webhook URL; register one with POST /webhooks.");

export const sessionNotFound = (id: string) => problem(404, "not_found", `No payment session with id ${id} exists for this account.`);

/** A session that can no longer be paid: completed once already, or expired. */
export const notPayable = (session: { id: string; status: string; expires_at: string }) =>
  problem(
    409,
    "session_not_payable",
    session.status === "completed" ? `Payment session ${session.id} is already paid.` : `Payment session ${session.id} expired at ${session.expires_at}.`,
  );
