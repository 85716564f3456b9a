// Every problem document this package builds (RFC 9457, decision D15), from the mock, the
// webhook toolkit or the sandbox, comes from here: one shape, one base for the type URL, and
// each code's title as the contract's examples give it.
import type { components } from "../../generated/openapi.ts";
import { problemTitles } from "../../generated/problem-titles.ts";

/** An RFC 9457 problem, the body of every error response. */
export type Problem = components["schemas"]["Problem"];
export type ProblemFieldError = components["schemas"]["ProblemFieldError"];

/** The media type of every error response. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Where the contract's problem types are documented; a problem's `type` is this plus its `code`. */
export const PROBLEM_TYPE_BASE = "https://docs.payin.example.com/problems/";

/** Codes the package answers that no example of the documents shows (the contract documents no 405). */
const UNDOCUMENTED_TITLES: Readonly<Record<string, string>> = {
  method_not_allowed: "Method not allowed",
  // Answers to requests node:http could not parse.
  request_header_fields_too_large: "Request header fields too large",
  request_timeout: "Request timeout",
  // Prism's own errors that are none of the contract's (a `Prefer` it cannot read).
  invalid_request: "Invalid request",
};

export interface ProblemExtras {
  /** One entry per offending field; left out of the document when empty. */
  errors?: ProblemFieldError[];
  existing_id?: string;
  /** Where the server's log has what went wrong with the request. */
  request_id?: string;
  /** For a code of the package's own, which no document shows. */
  title?: string;
}

/** The problem of `code` (snake_case, also naming its type), answered with `status`. */
export function problem(status: number, code: string, detail: string, { title, errors, ...rest }: ProblemExtras = {}): Problem {
  const known = title ?? problemTitles[code] ?? UNDOCUMENTED_TITLES[code];
  if (known === undefined) throw new Error(`No document shows a problem with code ${code}; give its title.`);
  return { type: PROBLEM_TYPE_BASE + code, title: known, status, detail, code, ...(errors?.length ? { errors } : {}), ...rest };
}

/** The contract's 422: the request's fields that break its schemas or rules. */
export const validationProblem = (errors: ProblemFieldError[]) =>
  problem(422, "validation_failed", `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`, { errors });

/** The server's own conditions, which every operation documents and no request can provoke, with their problem codes. */
export const SERVER_CONDITIONS: Readonly<Record<number, string>> = {
  429: "rate_limited",
  500: "internal_error",
  503: "service_unavailable",
};
