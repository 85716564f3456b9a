// The three bins' flags as a user meets them: --help lists every flag with its default and
// exits 0, --version prints the package's; an unknown flag gets one line naming it and --help, a
// malformed one a line naming it and then the usage, and exit 2.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { parseFlags, usageOf, type Command } from "../../src/lib/cli.ts";

const run = promisify(execFile);
const bins = {
  "payin-sandbox": path.join(root, "src", "sandbox", "cli.ts"),
  "payin-mock": path.join(root, "src", "mock", "cli.ts"),
  "payin-trigger": path.join(root, "src", "trigger", "cli.ts"),
};

const exec = (bin: keyof typeof bins, ...args: string[]) =>
  run(process.execPath, [bins[bin], ...args], { env: { ...process.env, PORT: "" } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe.each(Object.keys(bins) as (keyof typeof bins)[])("%s", (bin) => {
  it("prints its usage, every flag and its default, on --help and -h, and exits 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout, stderr } = await exec(bin, flag);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toMatch(new RegExp(`^usage: ${bin} `));
      expect(stdout).toContain("  -h, --help");
    }
  });

  it("prints the package's version on --version, and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(await exec(bin, "--version")).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("names an unknown flag and --help in one line, and exits 2", async () => {
    expect(await exec(bin, "--no-such-flag")).toEqual({
      code: 2,
      stdout: "",
      stderr: `${bin}: unknown flag --no-such-flag (${bin} --help lists the flags)\n`,
    });
  });
});

describe("the flags' answers", () => {
  it("shows each default the sandbox would use", async () => {
    const { stdout } = await exec("payin-sandbox", "--help");
    expect(stdout).toContain("--retry-schedule S,S,…");
    expect(stdout).toContain("(default: 5,300,1800,7200,18000,36000,36000)");
    expect(stdout).toContain("(default: 60)");
    expect(stdout).toContain("(default: in memory)");
    expect(stdout).toContain(
      "--allow-webhook-host HOST     a host outside loopback that webhooks may be delivered to, * for any, once per value (default: none)",
    );
  });

  it("names a flag given without its value, and an argument a command does not take", async () => {
    expect((await exec("payin-trigger", "success", "--url")).stderr.split("\n")[0]).toBe(
      "payin-trigger: Option '--url <value>' argument missing",
    );
    expect((await exec("payin-mock", "extra")).stderr.split("\n")[0]).toBe('payin-mock: unexpected argument "extra"');
  });

  it("lines the flags up, a default after what each does, and what follows after them", () => {
    const usage = usageOf({
      name: "demo",
      synopsis: "[--long-flag X]",
      flags: {
        a: { type: "boolean", default: false, description: "a switch" },
        "long-flag": { type: "string", value: "X", default: "7", description: "a value" },
      },
      more: "and then some",
    });
    expect(usage).toBe(
      [
        "usage: demo [--long-flag X]",
        "",
        "flags:",
        "  --a            a switch",
        "  --long-flag X  a value (default: 7)",
        "  -h, --help     print this help and exit",
        "  --version      print the package's version and exit",
        "",
        "and then some",
      ].join("\n"),
    );
  });
});

describe("parseFlags, in process", () => {
  const command = {
    name: "demo",
    synopsis: "[flags] <thing>",
    positionals: true,
    flags: {
      port: { type: "string", value: "N", default: "4010", description: "a port" },
      host: { type: "string", value: "HOST", multiple: true, description: "hosts" },
      quiet: { type: "boolean", description: "say less" },
    },
  } as const satisfies Command<any>;

  class Exit extends Error {
    readonly code: number;
    constructor(code: number) {
      super(`exit ${code}`);
      this.code = code;
    }
  }
  const run = (args: string[], which: Command<any> = command) => {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void out.push(line));
    vi.spyOn(console, "error").mockImplementation((line: string) => void err.push(line));
    vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Exit(code);
    }) as never);
    try {
      return { parsed: parseFlags(which, args), out, err };
    } catch (error) {
      if (!(error instanceof Exit)) throw error;
      return { code: error.code, out, err };
    }
  };
  afterEach(() => void vi.restoreAllMocks());

  it("gives each flag its value, its default when absent, every value of a repeated one, and the arguments", () => {
    expect(run(["--host", "a", "thing", "--host", "b", "--quiet"]).parsed).toEqual({
      values: { port: "4010", host: ["a", "b"], quiet: true },
      positionals: ["thing"],
    });
    expect(run([]).parsed).toEqual({ values: { port: "4010" }, positionals: [] });
  });

  it("prints the usage on --help or -h and exits 0", () => {
    for (const flag of ["--help", "-h"]) expect(run([flag])).toEqual({ code: 0, out: [usageOf(command)], err: [] });
  });

  it("names an unknown flag and --help in one line, and exits 2", () => {
    expect(run(["--nope"])).toEqual({ code: 2, out: [], err: ["demo: unknown flag --nope (demo --help lists the flags)"] });
  });

  it("names what else is wrong in one line, then the usage, and exits 2", () => {
    const refused = (args: string[], which?: Command<any>) => {
      const { code, err, out } = run(args, which);
      expect(out).toEqual([]);
      expect(code).toBe(2);
      const [line, ...rest] = err.join("\n").split("\n");
      expect(rest.join("\n")).toBe(usageOf(which ?? command));
      return line;
    };
    expect(refused(["--port"])).toBe("demo: Option '--port <value>' argument missing");
    expect(refused(["--quiet=yes"])).toBe("demo: Option '--quiet' does not take an argument");
    expect(refused(["extra"], { ...command, positionals: false })).toBe('demo: unexpected argument "extra"');
  });
});
