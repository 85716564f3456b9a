import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { generatedDir } from "../../scripts/lib/paths.ts";
import { openapiBundle, sandboxApi } from "../support/documents.ts";

const asyncapiBundle = JSON.parse(readFileSync(path.join(generatedDir, "asyncapi.json"), "utf8"));

const register = readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8");
// The source document sits in shared/ beside the repository, here and in CI.
const seed = readFileSync(path.join(root, "..", "shared", "seed", "payin-acceptance-service.md"), "utf8");
const entries = new Map(
  register
    .split(/^## /m)
    .slice(1)
    .map((section) => [section.match(/^(D\d+):/)?.[1] ?? section.slice(0, 20), section] as const),
);

/** Every `x-decision` value in a document, with the JSON pointer of the element that carries it. */
export function decisionRefs(doc: unknown, pointer = ""): Array<[string, string]> {
  if (!doc || typeof doc !== "object") return [];
  return Object.entries(doc).flatMap(([key, value]) =>
    key === "x-decision"
      ? (String(value).match(/D\d+/g) ?? [String(value)]).map((id) => [id, pointer] as [string, string])
      : decisionRefs(value, `${pointer}/${key}`),
  );
}

describe("the decision register", () => {
  it("has one entry for each of the source's 17 open points, in order, then the further decisions in order", () => {
    const ids = [...entries.keys()];
    expect(ids.slice(0, 17)).toEqual(Array.from({ length: 17 }, (_, i) => `D${i + 1}`));
    expect(ids).toEqual(ids.map((_, i) => `D${i + 1}`));
  });

  it.each([...entries])("%s quotes the source and gives the decision, the reason and the consequence", (id, section) => {
    const quote = section.match(/\*\*Source says:\*\* "([^"]*)"/)?.[1];
    // The open points quote the source's "not shown"; a further decision quotes what the source does say.
    if (Number(id.slice(1)) <= 17) expect(quote).toMatch(/not shown/);
    else expect(quote).toBeTruthy();
    expect(seed.replace(/\s+/g, " "), "the quote is the source's words").toContain(quote!.replace(/\s+/g, " "));
    for (const part of ["Decision", "Why", "If otherwise"]) expect(section).toContain(`**${part}:**`);
  });

  it.each([
    ["OpenAPI", openapiBundle],
    ["AsyncAPI", asyncapiBundle],
    ["sandbox's control API", sandboxApi],
  ])("every x-decision in the %s document names an entry", (_, doc) => {
    const refs = decisionRefs(doc);
    expect(refs.length).toBeGreaterThan(5);
    for (const [id, pointer] of refs) expect(entries.has(id), `${pointer}: ${id}`).toBe(true);
  });

  it("every entry is pointed at by some element of the documents", () => {
    const used = new Set([openapiBundle, asyncapiBundle, sandboxApi].flatMap((doc) => decisionRefs(doc)).map(([id]) => id));
    expect([...entries.keys()].filter((id) => !used.has(id))).toEqual([]);
  });
});
