// The README's first steps as a newcomer takes them: a new folder made with `npm init -y`, the
// README's install commands run as they are written (from its Markdown, never a copy kept here),
// the tarball `npm run package` makes installed beside them from npm's cache, then the README's
// first snippet, saved as the README says, run with Node against a sandbox on loopback, twice. And
// `npm pack` at the repository's root, which would pack the development manifest, refuses.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { floorNode, root } from "../../scripts/lib/paths.ts";
import { NODE_FLOOR } from "../../src/lib/node-floor.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { consumer, exec, installOffline } from "./support/consumer.ts";

const readme = readFileSync(path.join(root, "README.md"), "utf8");
const work = path.join(consumer.work, "readme");
/** The reader's new project, beside their clone of the repository, as the README places them. */
const project = path.join(work, "my-shop");
const clone = path.join(work, "payin-acceptance-contract");
/** The tarball `npm run package` leaves in the clone's dist/: the one the package's tests packed. */
const tarball = path.join(clone, "dist", path.basename(consumer.tarball));
const npmEnv = consumer.npmEnv;

/** The fenced blocks of a language under a heading of the README, in order. */
function blocks(language: string, heading?: string): string[] {
  const section = heading ? readme.slice(readme.indexOf(`\n## ${heading}\n`)).split(/\n## /)[1]! : readme;
  return [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);
}

/** Each command of a shell block, without its comment, as its words. */
const commands = (block: string) =>
  block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/));

let sandbox: RunningSandbox;

beforeAll(async () => {
  mkdirSync(path.dirname(tarball), { recursive: true });
  copyFileSync(consumer.tarball, tarball);
  mkdirSync(project);
  sandbox = await startSandbox({ port: 0 });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

describe("the README's install, followed as written", () => {
  const install = commands(blocks("sh", "Install")[0] ?? "");

  it("makes a new project, an ES module, and installs the tarball that npm run package makes, from where it makes it", async () => {
    expect(install.map((words) => words.join(" "))).toEqual([
      "npm init -y",
      "npm pkg set type=module",
      expect.stringMatching(/^npm install \S+\.tgz$/),
    ]);
    // The tarball's path names the file `npm run package` writes, in the clone's dist/.
    expect(path.resolve(project, install[2]![2]!)).toBe(tarball);
    for (const [npm, ...args] of install.slice(0, 2)) await exec(npm!, args, { cwd: project, env: npmEnv });
    // From npm's cache, as every package test installs: the tarball's one dependency is there.
    const { stderr } = await installOffline(project, install[2]!.slice(2));
    expect(stderr, "npm warns about nothing").toBe("");
    const manifest = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8"));
    expect(manifest.type).toBe("module");
    expect(Object.keys(manifest.dependencies)).toEqual(["payin-acceptance-contract"]);
  }, 120_000);

  // As the README says: `node checkout.ts` on Node 22.18 or newer (this run's), with a flag on the oldest Node it supports.
  it.each([
    [`Node ${process.versions.node}`, process.execPath, []],
    [`Node ${NODE_FLOOR}`, floorNode, ["--experimental-strip-types"]],
  ])(
    "then runs the README's first snippet as it is, saved as checkout.ts, on %s against a sandbox, twice in a row: " +
      "it prints a payment link each time",
    async (node, bin, flags) => {
      const snippet = blocks("ts")[0]!;
      const file = /Saved as `([\w.-]+\.ts)`/.exec(readme)?.[1];
      expect(file, "the README says where to save its first snippet").toBe("checkout.ts");
      expect(readme.replace(/\s+/g, " ")).toContain(flags.length ? `add \`${flags[0]}\`` : `\`node ${file}\``);
      writeFileSync(path.join(project, file!), snippet);
      // One account, as a newcomer's token: the second run meets the customer the first one made (409 counterparty_exists).
      const env = { ...process.env, PAYIN_BASE_URL: sandbox.url, PAYIN_TOKEN: `readme-${node.replace(/\W+/g, "-")}` };
      const links: string[] = [];
      for (const _ of [1, 2]) {
        const { stdout, stderr } = await exec(bin, [...flags, file!], { cwd: project, env });
        const link = stdout.trim();
        expect(link).toMatch(new RegExp(`^${sandbox.url}/pay/ps_\\S+$`));
        // The customer's page: the session the snippet made.
        expect((await fetch(link)).status).toBe(200);
        // Nothing but the oldest Node's note that type stripping is experimental: no word on a module type left to guess.
        const notes = stderr.split("\n").filter((line) => line && !/ExperimentalWarning: Type Stripping|--trace-warnings/.test(line));
        expect(notes).toEqual([]);
        links.push(link);
      }
      expect(new Set(links).size).toBe(2);
    },
    60_000,
  );
});

describe("npm pack at the repository's root", () => {
  it("refuses in one line that names npm run package, and packs nothing", async () => {
    const destination = path.join(work, "packed-at-root");
    mkdirSync(destination, { recursive: true });
    const refused = await exec("npm", ["pack", "--pack-destination", destination], { cwd: root, env: npmEnv }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused?.code, "npm pack exits with an error").toBeGreaterThan(0);
    // npm's own lines: the script it runs (`> …`) and its report of the failure (`npm error …`).
    const ours = `${refused!.stdout}\n${refused!.stderr}`.split("\n").filter((line) => line.trim() && !/^(> |npm error )/.test(line));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toContain("npm run package");
    expect(readdirSync(destination)).toEqual([]);
  });

  it("is left to the staged package that npm run package packs, whose manifest has no scripts", () => {
    const staged = JSON.parse(readFileSync(path.join(consumer.work, "package", "package.json"), "utf8"));
    expect(staged.scripts).toBeUndefined();
    expect(path.basename(consumer.tarball)).toBe(`payin-acceptance-contract-${staged.version}.tgz`);
  });
});
