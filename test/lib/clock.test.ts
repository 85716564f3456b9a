// A wait on the system's clock in a process with nothing else under way: a clock's timer never
// keeps the process alive (a sandbox's must not hold its process open), so a wait between two
// requests, as the conformance kit makes for a 429's Retry-After, keeps it alive itself (pauseOn),
// where sleepOn alone lets Node end the process in the middle of the wait.
import { execFile } from "node:child_process";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const exec = promisify(execFile);
const clock = pathToFileURL(path.resolve("src/lib/clock.ts")).href;

/** Node running `await WAIT(systemClock, 20)` as a module's last statement: its exit code and what it printed. */
const waitIn = (wait: "pauseOn" | "sleepOn") =>
  exec(process.execPath, [
    "--input-type=module",
    "-e",
    `import { ${wait}, systemClock } from ${JSON.stringify(clock)}; await ${wait}(systemClock, 20); console.log("waited");`,
  ]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

describe("a wait with nothing else under way", () => {
  it("keeps the process alive to its end with pauseOn", async () => {
    expect(await waitIn("pauseOn")).toEqual({ code: 0, stdout: "waited\n" });
  });

  it("does not with sleepOn alone: Node ends the process, its top-level await unsettled", async () => {
    expect(await waitIn("sleepOn")).toEqual({ code: 13, stdout: "" });
  });
});
