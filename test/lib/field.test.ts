// The one answer to "which field is wrong", for every validator of the package.
import { describe, expect, it } from "vitest";
import { ajvErrorField, fieldPath } from "../../src/lib/field.ts";

const error = (instancePath: string, keyword: string, params: Record<string, unknown> = {}) => ({ instancePath, keyword, params });

describe("fieldPath", () => {
  it("joins the path, then the named property", () => {
    expect(fieldPath(["address", "city"])).toBe("address.city");
    expect(fieldPath(["items", 0], "name")).toBe("items.0.name");
    expect(fieldPath([], "pad")).toBe("pad");
    expect(fieldPath([])).toBe("");
  });
});

describe("ajvErrorField", () => {
  it("is a dot path into the value, with JSON Pointer's escapes undone", () => {
    expect(ajvErrorField(error("/address/city", "type"))).toBe("address.city");
    expect(ajvErrorField(error("/a~1b/c~0d/~01", "type"))).toBe("a/b.c~d.~1");
    expect(ajvErrorField(error("", "type"))).toBe("");
  });

  it("names the missing or unexpected property itself", () => {
    expect(ajvErrorField(error("/address", "required", { missingProperty: "city" }))).toBe("address.city");
    expect(ajvErrorField(error("", "additionalProperties", { additionalProperty: "pad" }))).toBe("pad");
  });

  it("does not take a property from other keywords' parameters", () => {
    expect(ajvErrorField(error("/a", "dependentRequired", { missingProperty: "b" }))).toBe("a");
    expect(ajvErrorField(error("/a", "enum", { additionalProperty: "b" }))).toBe("a");
  });
});
