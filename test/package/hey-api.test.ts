// The contract stays usable by the most used third-party generator: @hey-api/openapi-ts, with
// its dates option on (which turns `format: date` schemas into the JavaScript `Date`), generates
// a client from the bundle that compiles under strict tsc. A schema named like a global (as
// `Date` was) makes it emit `export type Date = Date;`, which does not compile.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createClient } from "@hey-api/openapi-ts";
import { afterAll, describe, expect, it } from "vitest";
import { bin, generatedDir } from "../../scripts/lib/paths.ts";

const exec = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "payin-hey-api-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const STRICT = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    skipLibCheck: false,
  },
  include: ["**/*.ts"],
};

/** Generates a fetch client with dates on from `document` into `dir`, and type-checks it (or only `files`). */
async function generateAndCheck(
  document: object,
  dir: string,
  files: string[] = [],
): Promise<{ ok: boolean; output: string; types: string }> {
  const input = path.join(work, `${path.basename(dir)}.json`);
  writeFileSync(input, JSON.stringify(document));
  await createClient({
    input,
    output: dir,
    logs: { level: "silent" },
    plugins: [
      "@hey-api/client-fetch",
      "@hey-api/typescript",
      { name: "@hey-api/transformers", dates: true },
      { name: "@hey-api/sdk", transformer: true },
    ],
  });
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(files.length ? { ...STRICT, include: files } : STRICT));
  const types = readFileSync(path.join(dir, "types.gen.ts"), "utf8");
  try {
    await exec(bin("tsc"), ["-p", dir]);
    return { ok: true, output: "", types };
  } catch (e) {
    return { ok: false, output: String((e as { stdout?: string }).stdout ?? e), types };
  }
}

describe.concurrent("@hey-api/openapi-ts with dates on", () => {
  const bundle = JSON.parse(readFileSync(path.join(generatedDir, "openapi.json"), "utf8"));

  it("generates a client from the bundle that compiles under strict tsc", async () => {
    const { ok, output, types } = await generateAndCheck(bundle, path.join(work, "client"));
    expect(output).toBe("");
    expect(ok).toBe(true);
    expect(types).toContain("export type CalendarDate = Date;");
    expect(types).toMatch(/date_of_birth\?: CalendarDate/);
  });

  it("would not compile with a schema named Date (what the lint rule payin-no-global-names prevents)", async () => {
    const renamed = JSON.parse(JSON.stringify(bundle).replaceAll("#/components/schemas/CalendarDate", "#/components/schemas/Date"));
    renamed.components.schemas.Date = renamed.components.schemas.CalendarDate;
    delete renamed.components.schemas.CalendarDate;
    const { ok, output } = await generateAndCheck(renamed, path.join(work, "shadowed"), ["types.gen.ts"]);
    expect(ok).toBe(false);
    expect(output).toMatch(/Date/);
  });
});
