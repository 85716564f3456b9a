import { describe, expect, it } from "vitest";
import { resolvePointer, resolveRef } from "../../src/lib/json.ts";
import { HTTP_METHODS, isHttpMethod, operationsOf } from "../../scripts/lib/openapi.ts";
import { walkObjects } from "../../scripts/lib/walk.ts";
import { openapiBundle } from "../support/documents.ts";

describe("resolvePointer", () => {
  const doc = { paths: { "/a/{b}": { "x~y": 1 } }, list: ["zero", "one"] };

  it("follows each segment and unescapes ~1 and ~0", () => {
    expect(resolvePointer(doc, "#/paths/~1a~1{b}/x~0y")).toBe(1);
    expect(resolvePointer(doc, "#/list/1")).toBe("one");
  });

  it("returns the whole document for #, and undefined for a missing key", () => {
    expect(resolvePointer(doc, "#")).toBe(doc);
    expect(resolvePointer(doc, "#/paths/nowhere/deeper")).toBeUndefined();
  });

  it("refuses a reference to another file", () => {
    expect(() => resolvePointer(doc, "other.yaml#/a")).toThrow(/Only local references/);
  });
});

describe("resolveRef", () => {
  const doc = {
    components: { examples: { A: { $ref: "#/components/examples/B" }, B: { value: 42 }, Loop: { $ref: "#/components/examples/Loop" } } },
  };

  it("returns a node without $ref as it is", () => {
    const node = { value: 1 };
    expect(resolveRef(doc, node)).toBe(node);
  });

  it("follows a chain of references to the object at its end", () => {
    expect(resolveRef(doc, { $ref: "#/components/examples/A" })).toEqual({ value: 42 });
  });

  it("names a reference that leads nowhere or in a circle", () => {
    expect(() => resolveRef(doc, { $ref: "#/components/examples/Gone" })).toThrow("Unresolved reference #/components/examples/Gone");
    expect(() => resolveRef(doc, { $ref: "#/components/examples/Loop" })).toThrow("Circular reference #/components/examples/Loop");
  });

  it("resolves every webhook example of the bundle to an event", () => {
    for (const [type, item] of Object.entries<any>(openapiBundle.webhooks))
      for (const example of Object.values<any>(item.post.requestBody.content["application/json"].examples))
        expect(resolveRef<any>(openapiBundle, example).value.type).toBe(type);
  });
});

describe("operationsOf", () => {
  it("lists each method of each path in the specification's method order, skipping other keys", () => {
    const doc = {
      paths: { "/b": { post: { operationId: "p" }, parameters: [], get: { operationId: "g" }, "x-note": {} }, "/a": { delete: {} } },
    };
    expect(operationsOf(doc).map((o) => `${o.method} ${o.path}`)).toEqual(["get /b", "post /b", "delete /a"]);
    expect(operationsOf(doc)[0]!.operation).toBe(doc.paths["/b"].get);
  });

  it("finds the contract's six operations", () => {
    expect(operationsOf(openapiBundle)).toHaveLength(6);
  });

  it("knows the eight methods of an OpenAPI 3.1 path item and nothing else", () => {
    expect([...HTTP_METHODS].sort()).toEqual(["delete", "get", "head", "options", "patch", "post", "put", "trace"]);
    expect(isHttpMethod("get")).toBe(true);
    expect(isHttpMethod("parameters")).toBe(false);
  });
});

describe("walkObjects", () => {
  it("visits every object once, parent first, with its path, and not arrays themselves", () => {
    const shared = { description: "shared" };
    const doc = { a: shared, b: [shared, { c: { description: "deep" } }], s: "text" };
    const visits: string[] = [];
    walkObjects(doc, (_, at) => visits.push(`/${at.join("/")}`));
    expect(visits).toEqual(["/", "/a", "/b/1", "/b/1/c"]);
  });

  it("walks into what a visit has just written", () => {
    const doc: any = { a: {} };
    walkObjects(doc, (element, at) => {
      if (at.length === 1) element.added = { seen: false };
      if (at.at(-1) === "added") element.seen = true;
    });
    expect(doc.a.added.seen).toBe(true);
  });
});
