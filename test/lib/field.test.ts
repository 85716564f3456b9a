// The one answer to "which field is wrong", for every validator of the package.
import { describe, expect, it } from "vitest";
import { validateAgainstSchema } from "@stoplight/prism-http/dist/validator/validators/utils.js";
import { operations } from "../../generated/sandbox-requests.js";
import { ajvErrorField, fieldPath } from "../../src/lib/field.ts";
import { fieldErrors as mockFieldErrors } from "../../src/mock/violations.ts";
import { fieldErrors } from "../../src/sandbox/api/validation.ts";
import type { WebhookVerificationError } from "../../src/webhooks/errors.ts";
import { parseEvent } from "../../src/webhooks/parse.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { exampleEvent } from "../support/events.ts";

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

describe("a missing property, as each of the package's validators names it", () => {
  const missing = (errors: Array<{ field: string }>) => errors.map((e) => e.field);

  it("is the property itself in verifyWebhook's errors", () => {
    const event = exampleEvent("transaction-completed");
    delete event.data.transaction_id;
    const error = (() => {
      try {
        parseEvent(JSON.stringify(event), event.id);
      } catch (caught) {
        return caught as WebhookVerificationError;
      }
    })();
    expect(missing(error!.errors)).toContain("data.transaction_id");
  });

  it("is the property itself in the sandbox's 422", () => {
    const create = operations.find((op) => op.operationId === "createCounterparty")!;
    const { email: _, ...body } = newCounterparty();
    expect(missing(fieldErrors(create.validateBody!, body, "body"))).toEqual(["email"]);
  });

  it("is the property itself in the mock's 422, from the violation Prism's own validator reports", () => {
    const schema: Parameters<typeof validateAgainstSchema>[1] = {
      type: "object",
      properties: { address: { type: "object", required: ["country_code"] } },
    };
    const found = validateAgainstSchema({ address: {} }, schema, false, 0, "body");
    expect(found._tag).toBe("Some");
    expect(missing(mockFieldErrors(found._tag === "Some" ? found.value : []))).toEqual(["address.country_code"]);
  });
});
