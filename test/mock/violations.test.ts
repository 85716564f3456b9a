// Prism's violations as the mock lists and names them: the field each one is about, the
// sl-violations header, and the severity names Prism's server writes.
import { describe, expect, it } from "vitest";
import { violation, violationsHeader, type PrismDiagnostic } from "../../src/mock/prism.ts";
import { fieldErrors, violationField } from "../../src/mock/violations.ts";

const at = (path: Array<string | number> | undefined, message = "must be string"): PrismDiagnostic => ({
  path,
  severity: 0,
  code: "type",
  message,
});

describe("violationField", () => {
  it("names a field by its dot path below the part of the request", () => {
    expect(violationField(at(["body", "address", "country_code"]))).toBe("address.country_code");
    expect(violationField(at(["body", "items", 0, "name"]))).toBe("items.0.name");
  });

  it("names the missing or unexpected property itself, from Prism's message", () => {
    expect(violationField(at(["body", "address"], "Request body property address must have required property 'country_code'"))).toBe(
      "address.country_code",
    );
    expect(violationField(at(["body"], "Request body must have required property 'type'"))).toBe("type");
    expect(
      violationField(at(["body", "address"], "Request body property address must NOT have additional properties; found 'nickname'")),
    ).toBe("address.nickname");
    expect(violationField(at(["body"], "Request body must NOT have additional properties; found 'nickname'"))).toBe("nickname");
    expect(violationField(at(["header"], "Request header must have required property 'authorization'"))).toBe("authorization");
  });

  it("adds no property when the message quotes an empty name", () => {
    expect(violationField(at(["body", "name"], "Request body property name must have required property ''"))).toBe("name");
  });

  it("names the part of the request when the violation is about all of it", () => {
    expect(violationField(at(["body"]))).toBe("body");
    expect(violationField(at(["query", "page"]))).toBe("page");
    expect(violationField(at([]))).toBe("request");
    expect(violationField(at(undefined))).toBe("request");
  });

  it("gives each violation's field with its message", () => {
    expect(fieldErrors([at(["body", "name"]), at(["body"], "must have required property 'type'")])).toEqual([
      { field: "name", message: "must be string" },
      { field: "type", message: "must have required property 'type'" },
    ]);
  });
});

describe("Prism's violations as its server lists them", () => {
  it("prefixes the path with the side it was found on, and names the severity", () => {
    const details = [0, 1, 2, 3].map((severity) => ({ path: ["body", 0], severity, code: "type", message: "m" }));
    expect(details.map(violation("request"))).toEqual(
      ["Error", "Warning", "Information", "Hint"].map((severity) => ({
        location: ["request", "body", 0],
        severity,
        code: "type",
        message: "m",
      })),
    );
    expect(violation("response")({ severity: 0, message: "m" })).toEqual({
      location: ["response"],
      severity: "Error",
      code: undefined,
      message: "m",
    });
  });

  it("writes the header as the JSON list, cut short past 8,092 characters as Prism's server cuts it", () => {
    const one = [violation("request")(at(["body"]))];
    expect(violationsHeader(one)).toBe('[{"location":["request","body"],"severity":"Error","code":"type","message":"must be string"}]');
    const fits = (length: number) => [
      violation("request")(at(["body"], "x".repeat(length - JSON.stringify([violation("request")(at(["body"], ""))]).length))),
    ];
    expect(JSON.stringify(fits(8092)).length).toBe(8092);
    expect(violationsHeader(fits(8092))).toBe(JSON.stringify(fits(8092)));
    const long = fits(8093);
    expect(violationsHeader(long)).toBe(`Too many violations! ${JSON.stringify(long).substring(0, 8092)}`);
  });
});
