// The contract's problem documents (RFC 9457, decision D15) for every rejection the sandbox
// makes, through the package's one problem builder. Each code's title is the one the
// contract's own examples give it, read from the bundled document at start.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Json } from "../lib/json.ts";
import { problem as buildProblem, PROBLEM_CONTENT_TYPE, type Problem, type ProblemFieldError } from "../lib/problem.ts";
import { packageRoot } from "../package-root.ts";

export type { Problem, ProblemFieldError as FieldError };

/** Codes the sandbox answers that no example of the contract shows (the contract documents no 405). */
const UNDOCUMENTED_TITLES: Record<string, string> = { method_not_allowed: "Method not allowed" };

function contractTitles(): Map<string, string> {
  const openapi: Json = JSON.parse(readFileSync(path.join(packageRoot(import.meta.url), "generated", "openapi.json"), "utf8"));
  const examples = [
    ...Object.values<Json>(openapi.components?.examples ?? {}),
    ...Object.values<Json>(openapi.components?.responses ?? {}).flatMap((r) => Object.values<Json>(r.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {})),
  ];
  const titles = new Map(Object.entries(UNDOCUMENTED_TITLES));
  for (const { value } of examples) if (typeof value?.code === "string" && typeof value.title === "string") titles.set(value.code, value.title);
  return titles;
}

const titles = contractTitles();

export function problem(status: number, code: string, detail: string, extra: { errors?: ProblemFieldError[]; existing_id?: string } = {}): Problem {
  const title = titles.get(code);
  if (!title) throw new Error(`The contract has no problem with code ${code}.`);
  return buildProblem({ status, code, title, detail, ...extra });
}

export function validationProblem(errors: ProblemFieldError[]): Problem {
  return problem(422, "validation_failed", `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`, { errors });
}
