// @ts-nocheck
import { describe, expect, it } from "vitest";
import { problem, PROBLEM_TYPE_BASE, responseProblems } from "../../src/lib/problem.ts";
import { createAjv } from "../support/ajv.ts";
import { openapi, openapiBundle } from "../support/documents.ts";

const validateProblem = createAjv().compile(openapi.components.schemas.Problem);

describe("problem", () => {
  it("names the type after the code, under the one base", () => {
    expect(problem({ status: 404, code: "not_found", title: "Not found", detail: "No such thing." })).toEqual({
      type: "https://docs.payin.example.com/problems/not_found",
      title: "Not found",
      status: 404,
      detail: "No such thing.",
      code: "not_found",
    });
  });

  it("keeps errors only when there are some, and passes the other members on", () => {
    expect(problem({ status: 400, code: "x", title: "X", errors: [] })).not.toHaveProperty("errors");
    const errors = [{ field: "email", message: "must be a valid email address" }];
    expect(problem({ status: 409, code: "x", title: "X", errors, existing_id: "cp_1" })).toMatchObject({ errors, existing_id: "cp_1" });
  });

  it("uses the base the contract's own examples use", () => {
    for (const example of Object.values<any>(openapiBundle.components.examples))
      if (typeof example.value?.type === "string" && "code" in example.value)
        expect(example.value.type).toBe(PROBLEM_TYPE_BASE + example.value.code);
  });
});

describe("responseProblems", () => {
  const build = responseProblems(openapiBundle, ["BadRequest", "PayloadTooLarge", "ServiceUnavailable"]);

  it("takes code, title and status from the component's example and the detail from the caller", () => {
    const example = openapiBundle.components.responses.PayloadTooLarge.content["application/problem+json"].examples;
    const { status, code, title, type } = Object.values<any>(example)[0].value;
    expect(build("PayloadTooLarge", "Too big.")).toEqual({ type, title, status, code, detail: "Too big." });
  });

  it("builds documents that the contract's Problem schema accepts", () => {
    for (const component of ["BadRequest", "PayloadTooLarge", "ServiceUnavailable"] as const)
      expect(validateProblem(build(component, "detail")), component).toBe(true);
  });

  it("fails when made, not when first used, for a component without an example", () => {
    expect(() => responseProblems({ components: { responses: {} } }, ["BadRequest"])).toThrow(/no example for the BadRequest response/);
    expect(() => build("Unauthorized", "x")).toThrow(/Unauthorized was not among/);
  });
});
