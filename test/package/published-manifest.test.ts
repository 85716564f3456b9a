// The manifest `npm run package` publishes: what a consumer needs of the repository's
// package.json, and nothing of what only its developers use.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { PUBLISHED_FIELDS, publishedManifest, REPOSITORY_FIELDS } from "../../scripts/lib/published-manifest.ts";

const repository = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as Record<string, unknown>;

describe("publishedManifest", () => {
  it("keeps every field of the repository's package.json a consumer reads, unchanged", () => {
    const published = publishedManifest(repository);
    for (const field of PUBLISHED_FIELDS) expect(published[field], field).toEqual(repository[field]);
  });

  it("leaves out the repository's own fields, which the repository's package.json has", () => {
    expect(Object.keys(repository)).toEqual(expect.arrayContaining([...REPOSITORY_FIELDS]));
    expect(Object.keys(publishedManifest(repository)).filter((field) => (REPOSITORY_FIELDS as readonly string[]).includes(field))).toEqual(
      [],
    );
  });

  it("writes the fields in one order, whatever the repository's", () => {
    const { name, version, ...rest } = repository;
    expect(Object.keys(publishedManifest({ ...rest, version, name })).slice(0, 2)).toEqual(["name", "version"]);
  });

  it("omits a kept field the repository does not have, rather than writing it empty", () => {
    expect(publishedManifest({ name: "a", version: "1.0.0", scripts: { test: "vitest" } })).toEqual({ name: "a", version: "1.0.0" });
  });

  it("refuses a field in neither list, naming it and where to decide it", () => {
    expect(() => publishedManifest({ ...repository, types: "./index.d.ts", optionalDependencies: {} })).toThrow(
      "package.json has types, optionalDependencies, which the published manifest neither keeps nor leaves out: " +
        "add each to PUBLISHED_FIELDS or REPOSITORY_FIELDS in scripts/lib/published-manifest.ts",
    );
  });
});
