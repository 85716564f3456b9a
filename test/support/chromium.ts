// Debian's Chromium for the browser tests, driven by playwright-core: no package downloads a
// browser of its own. CI installs it, so there a missing browser fails the test, never a quiet
// skip; elsewhere the test is skipped with a line that says how to get it.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const executablePath = "/usr/bin/chromium";
const missing = !existsSync(executablePath);

/** Whether the browser tests of `file` are skipped here (Chromium missing, not CI); says so once when they are. */
export function skipBrowserTests(file: string, what: string): boolean {
  const skip = missing && !process.env.CI;
  if (skip) console.warn(`${file}: skipped: Chromium (${executablePath}) is missing. Install Debian's chromium package to run ${what}.`);
  return skip;
}

/** Headless Chromium without the background traffic this machine's closed network refuses; fails in CI when missing. */
export function launchChromium(what: string): Promise<Browser> {
  if (missing) throw new Error(`Chromium (${executablePath}) is missing: CI must install it (apt-get install chromium) to test ${what}`);
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
