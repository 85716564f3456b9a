import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));
const pkg = read("package.json");
const openapi = read("generated/openapi.json");
const asyncapi = read("generated/asyncapi.json");

describe("one version for the package, both documents and the example merchant's dependency", () => {
  it("package.json, OpenAPI info.version and AsyncAPI info.version agree", () => {
    expect([openapi.info.version, asyncapi.info.version]).toEqual([pkg.version, pkg.version]);
  });

  // Copied out of an install, the example installs the package from the registry: the version it ships with, or a later compatible one.
  it("the example merchant depends on this version of the package", () => {
    expect(read("examples/merchant/package.json").dependencies).toEqual({ "payin-acceptance-contract": `^${pkg.version}` });
  });

  it("the CHANGELOG has an entry for the version", () => {
    expect(readFileSync(path.join(root, "CHANGELOG.md"), "utf8")).toContain(`## ${pkg.version}`);
  });
});

describe("npm run check:breaking", () => {
  it("passes for today's documents against the last release", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts", "check-breaking.ts")], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("lists what 2.0.0 announces: the amount maximum, text without control characters, https:// session URLs, and nothing else", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts", "check-breaking.ts")], { encoding: "utf8" });
    if (openapi.info.version !== "2.0.0") return; // a later version compares with its own last release
    const plainText = (field: string) =>
      `  - ${field}: pattern (none) became "^[^\\\\x00-\\\\x1F\\\\x7F-\\\\x9F]*$" [request-property-pattern-added]`;
    expect(r.stdout.trim().split("\n").slice(1)).toEqual([
      ...["first_name", "last_name", "address.line_1", "address.city", "address.state", "address.postal_code"].map((f) =>
        plainText(`POST /api/v1/send/counterparties/ request body.${f}`),
      ),
      "  - POST /api/v1/earn/payment-sessions/ request body.amount: maximum (none) became maximum 1000000000000 [request-property-max-set]",
      plainText("POST /api/v1/earn/payment-sessions/ request body.order_id"),
      '  - POST /api/v1/earn/payment-sessions/ request body.source_url: pattern (none) became "^https://" [request-property-pattern-added]',
      "  - POST /api/v1/earn/payment-sessions/ request body.redirect_url: " +
        'pattern (none) became "^https://" [request-property-pattern-added]',
    ]);
  });
});

describe("the last release", () => {
  it("is a document of the contract, kept beside its source", () => {
    for (const file of ["openapi/last-release.json", "asyncapi/last-release.json"])
      expect(read(file).info.title).toMatch(/Payin Acceptance Service/);
  });
});
