// How the generated validators' errors become the contract's field errors.
import { describe, expect, it } from "vitest";
import type { ValidationError } from "../../generated/event-validators.js";
import { fieldOf } from "../../src/sandbox/validation.ts";

const error = (instancePath: string, keyword: string, params: Record<string, unknown> = {}) => ({ instancePath, keyword, params, schemaPath: "#" }) as ValidationError;

describe("field names of validation errors", () => {
  it("are dot paths into the body, with JSON Pointer's escapes undone", () => {
    expect(fieldOf(error("/address/city", "type"))).toBe("address.city");
    expect(fieldOf(error("/a~1b/c~0d/~01", "type"))).toBe("a/b.c~d.~1");
    expect(fieldOf(error("", "type"))).toBe("");
  });

  it("name the missing or unexpected property itself", () => {
    expect(fieldOf(error("/address", "required", { missingProperty: "city" }))).toBe("address.city");
    expect(fieldOf(error("", "additionalProperties", { additionalProperty: "pad" }))).toBe("pad");
  });
});
