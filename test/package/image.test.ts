// The sandbox's container image: the Containerfile at the repository's root, the Compose file of
// examples/ci/ and the CI guide's recipes agree on its port, its volume, its user and its health
// command; and the image, built offline with Debian's buildah from the executable the global setup
// built (support/install.ts), runs its entry point from its own files (`buildah mount`, then chroot
// into them, as the image's user), which answers /_sandbox/health. Without buildah (or root, which
// chroot and buildah's storage need) the build is skipped, saying why; in CI it may not be, and
// .ci/run installs buildah.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { IMAGE_USER } from "../../scripts/executables/image-root.ts";
import { root } from "../../scripts/lib/paths.ts";
import { executables, freePort, guideBlock, runFile, start } from "./support/executables.ts";

const exec = promisify(execFile);
/** chroot, found on this process's PATH: the image's own PATH, which its commands run with, has none. */
const CHROOT = spawnSync("sh", ["-c", "command -v chroot"], { encoding: "utf8" }).stdout.trim() || "chroot";

/** The Containerfile's instructions, each with its arguments as written (a JSON array parsed). */
const containerfile = readFileSync(path.join(root, "Containerfile"), "utf8")
  .split("\n")
  .filter((line) => line.trim() && !line.startsWith("#"))
  .map((line) => {
    const [, instruction, rest] = /^([A-Z]+)\s+(.*)$/.exec(line)!;
    return { instruction: instruction!, rest: rest! };
  });
const instruction = (name: string) => containerfile.filter((i) => i.instruction === name).map((i) => i.rest);
const exposed = instruction("EXPOSE");
const health = JSON.parse(/CMD (\[.*\])$/.exec(instruction("HEALTHCHECK")[0]!)![1]!) as string[];

describe("the image's recipe, the Compose file and the CI guide", () => {
  it("the Containerfile: nothing pulled, port 4010, the state on /data, user 10001, the executable's own health command", () => {
    expect(instruction("FROM")).toEqual(["scratch"]);
    expect(instruction("COPY")).toEqual(["dist/image-root/ /", `--chown=${IMAGE_USER.uid}:${IMAGE_USER.gid} dist/image-data/ /data/`]);
    expect(instruction("USER")).toEqual([`${IMAGE_USER.uid}:${IMAGE_USER.gid}`]);
    expect(exposed).toEqual(["4010"]);
    expect(instruction("VOLUME")).toEqual(["/data"]);
    expect(instruction("ENV")).toEqual(["PATH=/usr/local/bin PORT=4010"]);
    expect(health).toEqual(["/usr/local/bin/payin-sandbox", "health"]);
    expect(JSON.parse(instruction("ENTRYPOINT")[0]!)).toEqual(["/usr/local/bin/payin-sandbox", "--host", "0.0.0.0"]);
    expect(JSON.parse(instruction("CMD")[0]!)).toEqual(["--db", "/data/sandbox.db"]);
    // The build context is the repository: only what the Containerfile copies is sent to a builder.
    expect(
      readFileSync(path.join(root, ".dockerignore"), "utf8")
        .split("\n")
        .filter((l) => l && !l.startsWith("#")),
    ).toEqual(["*", "!dist/image-root", "!dist/image-data"]);
  });

  it("examples/ci/compose.yaml is the guide's, and runs the image on its port, its volume and its health command", () => {
    const compose = YAML.parse(readFileSync(path.join(root, "examples", "ci", "compose.yaml"), "utf8"));
    expect(YAML.parse(guideBlock("Docker Compose", "yaml"))).toEqual(compose);
    const { sandbox, tests, listen } = compose.services;
    expect(sandbox.ports).toEqual([`${exposed[0]}:${exposed[0]}`]);
    expect(sandbox.volumes).toEqual([`sandbox-data:${instruction("VOLUME")[0]}`]);
    expect(sandbox.command.slice(0, 2)).toEqual(JSON.parse(instruction("CMD")[0]!));
    expect(sandbox.healthcheck.test).toEqual(["CMD", ...health]);
    expect(tests.depends_on.sandbox.condition).toBe("service_healthy");
    expect(tests.environment.PAYIN_BASE_URL).toBe(`http://sandbox:${exposed[0]}`);
    expect(listen.image).toBe(sandbox.image);
    expect(listen.network_mode).toBe("service:tests");
    expect(listen.command).toEqual([
      "--base-url",
      tests.environment.PAYIN_BASE_URL,
      "--token",
      tests.environment.PAYIN_TOKEN,
      "--forward-to",
      `http://127.0.0.1:${tests.environment.WEBHOOK_PORT}/webhooks`,
    ]);
  });

  it("the GitHub Actions and GitLab CI jobs run the image as a service on its port, and payin-listen beside the tests", () => {
    const github = YAML.parse(guideBlock("GitHub Actions", "yaml")).jobs.test;
    expect(github.services.sandbox.ports).toEqual([`${exposed[0]}:${exposed[0]}`]);
    // Docker runs --health-cmd through /bin/sh, which the image has not: the image's own check is tuned, never replaced.
    expect(github.services.sandbox.options).not.toContain("--health-cmd");
    expect(github.env.PAYIN_BASE_URL).toBe(`http://127.0.0.1:${exposed[0]}`);
    const gitlab = YAML.parse(guideBlock("GitLab CI", "yaml")).test;
    expect(gitlab.services).toEqual([expect.objectContaining({ alias: "sandbox" })]);
    expect(gitlab.variables.PAYIN_BASE_URL).toBe(`http://sandbox:${exposed[0]}`);
    for (const script of [github.steps.at(-1).run as string, (gitlab.script as string[]).join("\n")]) {
      expect(script).toContain('--forward-to "http://127.0.0.1:$WEBHOOK_PORT/webhooks"');
      expect(script).toContain("python3 -m unittest discover -s tests -v");
    }
  });
});

const buildahMissing = (() => {
  if (spawnSync("buildah", ["--version"]).status !== 0) return "buildah is not installed (apt-get install buildah)";
  if (process.getuid?.() !== 0) return "it is not run as root, which buildah's storage and chroot need here";
  return undefined;
})();
if (buildahMissing && process.env.CI) throw new Error(`The image cannot be built: ${buildahMissing}; CI installs buildah (.ci/run)`);

describe.skipIf(buildahMissing !== undefined)(
  buildahMissing ? `image build skipped: ${buildahMissing}` : "the image, built with buildah",
  () => {
    // A storage of the test's own, removed after it (vfs: no overlay mount is needed), so that nothing is left in the machine's.
    let storage: string;
    const buildah = (...args: string[]) =>
      exec("buildah", ["--root", path.join(storage, "root"), "--runroot", path.join(storage, "run"), "--storage-driver", "vfs", ...args], {
        maxBuffer: 1 << 24,
      }).then(({ stdout }) => stdout.trim());
    const image = `localhost/payin-sandbox-test:${process.pid}`;
    let container: string | undefined;
    let mounted: string;
    let config: {
      User: string;
      Env: string[];
      Entrypoint: string[];
      Cmd: string[];
      ExposedPorts: Record<string, unknown>;
      Volumes: Record<string, unknown>;
      Healthcheck: { Test: string[] };
    };

    beforeAll(async () => {
      storage = mkdtempSync(path.join(tmpdir(), "payin-buildah-"));
      // The context is the folder that holds the executables' dist/, as the repository holds dist/ after `npm run package`.
      const context = path.dirname(executables.dist);
      await buildah(
        ...["bud", "--isolation", "chroot", "--format", "docker"],
        ...["--ignorefile", path.join(root, ".dockerignore"), "-f", path.join(root, "Containerfile"), "-t", image, context],
      );
      config = JSON.parse(await buildah("inspect", "--type", "image", image)).Docker.config;
      container = await buildah("from", image);
      mounted = await buildah("mount", container);
    }, 120_000);
    afterAll(async () => {
      if (container) await buildah("rm", container);
      await buildah("rmi", "--all").catch(() => undefined);
      if (storage) rmSync(storage, { recursive: true, force: true });
    });

    it("holds the executable, its libraries and its user, nothing else, and says what to run, as whom, and its health check", () => {
      const all = (dir: string): string[] =>
        readdirSync(path.join(mounted, dir), { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? all(`${dir}${entry.name}/`) : [`${dir}${entry.name}`],
        );
      const bins = ["sandbox", "conformance", "listen"].map((command) => `/usr/local/bin/payin-${command}`);
      const files = all("/");
      const libraries = files.filter((file) => /^\/lib(64)?\//.test(file));
      expect(files.filter((file) => !libraries.includes(file)).sort()).toEqual(
        ["/etc/group", "/etc/nsswitch.conf", "/etc/passwd", ...bins].sort(),
      );
      expect(libraries.map((file) => path.basename(file))).toEqual(expect.arrayContaining(["libc.so.6", "libstdc++.so.6"]));
      expect(new Set(bins.map((file) => statSync(path.join(mounted, file)).ino)).size).toBe(1);
      expect(readFileSync(path.join(mounted, "etc", "passwd"), "utf8")).toContain(`:x:${IMAGE_USER.uid}:${IMAGE_USER.gid}:`);
      expect(statSync(path.join(mounted, "data")).uid).toBe(IMAGE_USER.uid);
      expect(config).toMatchObject({
        User: `${IMAGE_USER.uid}:${IMAGE_USER.gid}`,
        Entrypoint: ["/usr/local/bin/payin-sandbox", "--host", "0.0.0.0"],
        Cmd: ["--db", "/data/sandbox.db"],
        ExposedPorts: { "4010/tcp": {} },
        Volumes: { "/data": {} },
        Healthcheck: { Test: ["CMD", ...health] },
      });
    });

    it("runs its entry point from its own files as its user: /data/sandbox.db made, /_sandbox/health and its check answered", async () => {
      const port = String(await freePort());
      // The image's environment alone, its port a free one; on loopback here rather than every interface.
      const env = { ...Object.fromEntries(config.Env.map((line) => line.split(/=(.*)/s).slice(0, 2))), PORT: port };
      const asUser = ["--userspec", config.User, mounted];
      const sandbox = start(CHROOT, [...asUser, ...config.Entrypoint, ...config.Cmd, "--host", "127.0.0.1"], { env });
      try {
        const [, url] = await sandbox.printed(/listening on (http:\/\/\S+)/);
        expect(url).toBe(`http://127.0.0.1:${port}`);
        expect(sandbox.output()).toContain("Payin sandbox (stateful, database /data/sandbox.db) listening on");
        const answer = await fetch(`${url}/_sandbox/health`);
        expect([answer.status, await answer.json()]).toEqual([200, { status: "serving", database: "sqlite" }]);
        const checked = await runFile(CHROOT, [...asUser, ...config.Healthcheck.Test.slice(1)], { env });
        expect(checked).toEqual({ code: 0, stdout: `${url}/_sandbox/health: serving\n`, stderr: "" });
        expect(statSync(path.join(mounted, "data", "sandbox.db")).uid).toBe(IMAGE_USER.uid);
        // Anywhere but /data is not the user's: one line says so.
        const refused = await runFile(CHROOT, [...asUser, config.Entrypoint[0]!, "--port", "0", "--db", "/sandbox.db"], { env });
        expect(refused.code).toBe(1);
        expect(refused.stderr.trimEnd().split("\n")).toEqual([
          expect.stringMatching(
            /^payin-sandbox: The sandbox cannot open its database \/sandbox\.db: the folder \/ is read-only for this process/,
          ),
        ]);
      } finally {
        await sandbox.stop();
      }
      // Stopped, the health check says why in one line.
      const after = await runFile(CHROOT, [...asUser, ...config.Healthcheck.Test.slice(1)], { env });
      expect(after.code).toBe(1);
      expect(after.stderr).toMatch(
        /^payin-sandbox health: http:\/\/127\.0\.0\.1:\d+\/_sandbox\/health cannot be reached \(ECONNREFUSED\)\n$/,
      );
    });
  },
);
