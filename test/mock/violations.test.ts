// Prism's violations as the mock lists and names them: the field each one is about, the
// sl-violations header, and the severity names Prism's server writes.
import { describe, expect, it } from "vitest";
import { violation, violationsHeader, type PrismViolation } from "../../src/mock/prism.ts";
import { fieldErrors, violationField } from "../../src/mock/violations.ts";

const at = (location: Array<string | number>, message = "must be string"): PrismViolation => ({ location, severity: "Error", code: "type", message });

describe("violationField", () => {
  it("names a field by its dot path below the part of the request", () => {
    expect(violationField(at(["request", "body", "address", "country_code"]))).toBe("address.country_code");
    expect(violationField(at(["request", "body", "items", 0, "name"]))).toBe("items.0.name");
  });

  it("adds the property a missing-property or unexpected-property message names", () => {
    expect(violationField(at(["request", "body", "address"], "must have required property 'country_code'"))).toBe("address.country_code");
    expect(violationField(at(["request", "body"], "must NOT have additional properties; found 'nickname'"))).toBe("nickname");
  });

  it("names the part of the request when the violation is about all of it", () => {
    expect(violationField(at(["request", "body"]))).toBe("body");
    expect(violationField(at(["request", "query", "page"]))).toBe("page");
    expect(violationField(at(["request"]))).toBe("request");
    expect(violationField(at([]))).toBe("request");
  });

  it("gives each violation's field with its message", () => {
    expect(fieldErrors([at(["request", "body", "name"]), at(["request", "body"], "must have required property 'type'")])).toEqual([
      { field: "name", message: "must be string" },
      { field: "type", message: "must have required property 'type'" },
    ]);
  });
});

describe("Prism's violations as its server lists them", () => {
  it("prefixes the path with the side it was found on, and names the severity", () => {
    const details = [0, 1, 2, 3].map((severity) => ({ path: ["body", 0], severity, code: "type", message: "m" }));
    expect(details.map(violation("request"))).toEqual(
      ["Error", "Warning", "Information", "Hint"].map((severity) => ({ location: ["request", "body", 0], severity, code: "type", message: "m" })),
    );
    expect(violation("response")({ severity: 0, message: "m" })).toEqual({ location: ["response"], severity: "Error", code: undefined, message: "m" });
  });

  it("writes the header as the JSON list, cut short past 8,092 characters as Prism's server cuts it", () => {
    const one = [at(["request", "body"])];
    expect(violationsHeader(one)).toBe(JSON.stringify(one));
    const fits = (length: number) => [at(["request", "body"], "x".repeat(length - JSON.stringify([at(["request", "body"], "")]).length))];
    expect(JSON.stringify(fits(8092)).length).toBe(8092);
    expect(violationsHeader(fits(8092))).toBe(JSON.stringify(fits(8092)));
    const long = fits(8093);
    expect(violationsHeader(long)).toBe(`Too many violations! ${JSON.stringify(long).substring(0, 8092)}`);
  });
});
