// The package as a consumer receives it: packed as `npm run package` packs it and installed into
// a fresh project (the global setup, support/install.ts): what it holds, what its manifest says,
// what npm says installing it, and what publint and arethetypeswrong find.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bin } from "../../scripts/lib/paths.ts";
import { NODE_FLOOR } from "../../src/lib/node-floor.ts";
import { consumer, exec, project, tarball } from "./support/consumer.ts";

describe("the packed package", () => {
  // A budget, raised from 200 KiB when the receiver checks and the sandbox's faults came (213 KiB),
  // from 240 KiB when the docs the README links to came with it (262 KiB), and from 280 KiB when
  // the flows document, the testing entry and the sandbox client's types came (289 KiB), and from
  // 320 KiB when the conformance guide's tables of checks were written into it and the checks of an
  // endpoint's own failures came (322 KiB), and from 340 KiB when payin-listen, the delivery transports
  // and the generated event flows came (344 KiB), and from 360 KiB when the hosted sandbox's health, metrics, retention,
  // destinations and access came (362 KiB), and from 384 KiB when the sandbox's runtime, its issued accounts, the
  // public-address guard with its resolver, payin-mcp's eleven tools and the docs' one index came (405 KiB), and from
  // 416 KiB when the dashboard became a workbench (each delivery as sent and answered, its filter, cards on a phone: 418 KiB),
  // and from 432 KiB when deliveries kept their order through listeners' outages and a crash, and the hosting guide said
  // how (432 KiB), and from 448 KiB (451 KiB before them) when the webhook test vectors, their schema and the guide to
  // verifying webhooks in any language came (466 KiB: 78 signed deliveries are 11 KiB packed), and from 480 KiB when the
  // receiver checks came to delete what they make, payin-listen to check what its stream sends, and the docs' search to rank
  // without MiniSearch (12 KiB of them; 494 KiB with the CI guide and the sandbox's work of the same days).
  it("is under 512 KiB and ships only what consumers use: code, documents, and the docs its README links to", () => {
    expect(statSync(tarball).size).toBeLessThan(512 * 1024);
    const files = consumer.files;
    const shipped = new RegExp(
      [
        String.raw`^(dist\/(src|generated)\/.*\.(js|d\.ts)|generated\/(openapi|asyncapi|payin\.arazzo)\.(json|yaml)|`,
        String.raw`generated\/sandbox\.yaml|generated\/webhook-vectors(\.schema)?\.json|`,
        String.raw`package\.json|(README|CHANGELOG|CONTRIBUTING)\.md|LICENSE|scripts\/docs\/guides\/[a-z-]+\.md|openapi\/DECISIONS\.md|`,
        String.raw`examples\/merchant\/(README\.md|package\.json|tsconfig\.json|src\/[a-z-]+\.ts))$`,
      ].join(""),
    );
    expect(files.filter((f) => !shipped.test(f))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        "dist/src/index.js",
        "dist/src/webhooks/index.d.ts",
        "generated/openapi.yaml",
        "generated/asyncapi.json",
        "openapi/DECISIONS.md",
      ]),
    );
  });

  it("has none of the repository's scripts, dev tools or settings in its package.json", () => {
    const manifest = JSON.parse(readFileSync(path.join(project, "node_modules", "payin-acceptance-contract", "package.json"), "utf8"));
    const repositoryOnly = ["scripts", "devDependencies", "allowScripts", "scarfSettings", "private", "files"];
    expect(Object.keys(manifest).filter((field) => repositoryOnly.includes(field))).toEqual([]);
  });

  // npm warned at every install about the repository's prepare script when the package carried it.
  it("installs into a fresh project with npm saying what it added, and nothing else", () => {
    expect(consumer.installed.stderr).toBe("");
    expect(consumer.installed.stdout.trim()).toMatch(/^added \d+ packages? in [\d.]+m?s$/);
  });

  it("has every guide whole: the conformance guide's tables of checks written in, no placeholder left", () => {
    const installedGuides = consumer.files.filter((f) => /^scripts\/docs\/guides\/.*\.md$/.test(f));
    const guideText = (file: string) => readFileSync(path.join(project, "node_modules", "payin-acceptance-contract", file), "utf8");
    // What the build fills in has a start marker with a colon and an end marker with a slash; a placeholder has neither.
    expect(installedGuides.filter((file) => /<!-- [\w-]+ -->/.test(guideText(file)))).toEqual([]);
    const conformance = guideText("scripts/docs/guides/conformance.md");
    expect(conformance).toMatch(/^\| `receiver\.forged\.other-secret` \| /m);
    expect(conformance).toMatch(/^\| `answers\.create-counterparty` \| /m);
  });

  it("says where it lives, and which Node it needs, as src/lib/node-floor.ts does", () => {
    const manifest = JSON.parse(readFileSync(path.join(project, "node_modules", "payin-acceptance-contract", "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      homepage: expect.stringMatching(/^https:\/\//),
      repository: { url: expect.stringMatching(/^git\+https:\/\//) },
      bugs: { url: expect.stringMatching(/^https:\/\//) },
    });
    expect(manifest.engines).toEqual({ node: `>=${NODE_FLOOR}` });
  });

  it("has every file its README and guides link to, where an installed copy is read", () => {
    const installed = path.join(project, "node_modules", "payin-acceptance-contract");
    const documents = ["README.md", ...consumer.files.filter((f) => /^scripts\/docs\/guides\/.*\.md$/.test(f))];
    const broken = documents.flatMap((document) =>
      [...readFileSync(path.join(installed, document), "utf8").matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.join(installed, path.dirname(document), target)))
        .map((target) => `${document} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("has two small runtime dependencies, openapi-fetch and ipaddr.js, and validates events without a library", () => {
    const manifest = JSON.parse(readFileSync(path.join(project, "node_modules", "payin-acceptance-contract", "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(["ipaddr.js", "openapi-fetch"]);
    // PostgreSQL's driver only for those who host a shared sandbox: installed by them, never by a types-and-client user.
    expect(manifest.peerDependenciesMeta.pg).toEqual({ optional: true });
    expect(existsSync(path.join(project, "node_modules", "pg"))).toBe(false);
    const validators = readFileSync(
      path.join(project, "node_modules", "payin-acceptance-contract", "dist", "generated", "event-validators.js"),
      "utf8",
    );
    expect(validators).not.toMatch(/\bfrom\s+["'](?!\.)/);
  });

  it("passes publint and arethetypeswrong", async () => {
    await exec(bin("publint"), ["run", tarball, "--strict"]);
    // ESM only; the YAML entry points are data for tools such as Prism.
    await exec(bin("attw"), [tarball, "--profile", "esm-only", "--exclude-entrypoints", "openapi.yaml", "asyncapi.yaml", "arazzo.yaml"]);
  });

  it("exports the bundled documents and the webhook test vectors", async () => {
    const { stdout } = await exec(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const documents = ["openapi.json", "openapi.yaml", "asyncapi.json", "asyncapi.yaml", "arazzo.yaml"];
      for (const doc of [...documents, "webhook-vectors.json", "webhook-vectors.schema.json"]) {
        console.log(require.resolve("payin-acceptance-contract/" + doc));
      }
    `,
      ],
      { cwd: project },
    );
    expect(stdout.trim().split("\n")).toHaveLength(7);
  });
});
