// Every bin answers a flag it does not take with one line that names the flag and --help, and exit
// 2: a typo's answer is that line, not the whole usage to scroll back through for it.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

const run = (...args: string[]) =>
  promisify(execFile)(process.execPath, args).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

it.each([
  ["payin-sandbox", "sandbox", []],
  ["payin-sandbox accounts", "sandbox", ["accounts", "list"]],
  ["payin-mock", "mock", []],
  ["payin-trigger", "trigger", []],
  ["payin-listen", "listen", []],
  ["payin-mcp", "mcp", []],
  ["payin-conformance", "conformance", []],
  ["payin-conformance receiver", "conformance", ["receiver"]],
])("%s --no-such-flag: one line naming it and --help, exit 2", async (name, folder, args) => {
  expect(await run(path.join(root, "src", folder, "cli.ts"), ...args, "--no-such-flag")).toEqual({
    code: 2,
    stdout: "",
    stderr: `${name}: unknown flag --no-such-flag (${name} --help lists the flags)\n`,
  });
});
