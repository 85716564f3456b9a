import { describe, expect, it } from "vitest";
import { problem, PROBLEM_TYPE_BASE, validationProblem } from "../../src/lib/problem.ts";
import { problemTitles } from "../../scripts/lib/problem-titles.ts";
import { createAjv } from "../support/ajv.ts";
import { openapi, openapiBundle, sandboxApi } from "../support/documents.ts";

const validateProblem = createAjv().compile(openapi.components.schemas.Problem);

/** Every problem example of the two documents. */
const examples = [
  ...Object.values<any>(openapiBundle.components.examples).map((e) => e.value),
  ...Object.values<any>(openapiBundle.components.responses).flatMap((r) =>
    Object.values<any>(r.content?.["application/problem+json"]?.examples ?? {}).map((e) => e.value),
  ),
].filter((value) => typeof value?.code === "string");

describe("problem", () => {
  it("names the type after the code, under the one base, with the title the documents give the code", () => {
    expect(problem(404, "not_found", "No such thing.")).toEqual({
      type: "https://docs.payin.example.com/problems/not_found",
      title: "Not found",
      status: 404,
      detail: "No such thing.",
      code: "not_found",
    });
  });

  it("is, for every example of the contract, the example's type, title and status", () => {
    expect(examples.length).toBeGreaterThan(10);
    for (const { type, title, status, code } of examples)
      expect(problem(status, code, "detail"), code).toMatchObject({ type, title, status, code });
  });

  it("keeps errors only when there are some, and passes the other members on", () => {
    expect(problem(400, "malformed_request", "x", { errors: [] })).not.toHaveProperty("errors");
    const errors = [{ field: "email", message: "must be a valid email address" }];
    expect(problem(409, "counterparty_exists", "x", { errors, existing_id: "cp_1" })).toMatchObject({ errors, existing_id: "cp_1" });
  });

  it("takes the title of a code of the package's own, and refuses a code nobody titled", () => {
    expect(problem(401, "webhook_invalid_signature", "x", { title: "Webhook verification failed" }).title).toBe(
      "Webhook verification failed",
    );
    expect(problem(405, "method_not_allowed", "x").title).toBe("Method not allowed");
    expect(() => problem(418, "teapot", "x")).toThrow(/No document shows a problem with code teapot/);
  });

  it("builds documents that the contract's Problem schema accepts", () => {
    for (const { status, code } of examples) expect(validateProblem(problem(status, code, "detail")), code).toBe(true);
    expect(validateProblem(validationProblem([{ field: "email", message: "is required" }]))).toBe(true);
  });

  it("uses the base the contract's own examples use", () => {
    for (const { type, code } of examples) expect(type).toBe(PROBLEM_TYPE_BASE + code);
  });
});

describe("validationProblem", () => {
  it("counts the fields in its detail", () => {
    expect(validationProblem([{ field: "a", message: "m" }])).toMatchObject({
      status: 422,
      code: "validation_failed",
      detail: "The request has 1 invalid field.",
    });
    expect(
      validationProblem([
        { field: "a", message: "m" },
        { field: "b", message: "m" },
      ]).detail,
    ).toBe("The request has 2 invalid fields.");
  });
});

describe("problemTitles (build time)", () => {
  it("gives each code of the documents' examples its title, sorted, the sandbox's own codes included", () => {
    const titles = problemTitles(openapiBundle, sandboxApi);
    expect(Object.keys(titles)).toEqual(Object.keys(titles).sort());
    expect(titles).toMatchObject({
      not_found: "Not found",
      validation_failed: "Validation failed",
      session_not_payable: "Session cannot be paid",
    });
  });
});
