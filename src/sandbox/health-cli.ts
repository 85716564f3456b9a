// `payin-sandbox health [--url URL] [--wait S]`: asks a running sandbox's GET /_sandbox/health;
// exit 0 when it answers 200, 1 with one line saying what came instead. A container's health
// check runs it where there is no curl (the image holds the sandbox alone), and so does a CI
// script that waits for the sandbox it started: --wait asks again until the sandbox serves or
// S seconds have passed.
import { parseFlags, refuse, type Command } from "../lib/cli.ts";

const command = {
  name: "payin-sandbox health",
  synopsis: "[--url URL] [--wait S]",
  flags: {
    url: {
      type: "string",
      value: "URL",
      shownDefault: "http://127.0.0.1:$PORT, or :4010",
      description: "the sandbox, as its clients reach it",
    },
    wait: { type: "string", value: "S", default: "0", description: "seconds to keep asking while the sandbox does not serve yet" },
  },
} as const satisfies Command<any>;

/** How long one question may take: a sandbox that holds it longer is not serving. */
const ASK_TIMEOUT_MS = 2000;
/** Between two questions, while --wait lasts. */
const AGAIN_MS = 100;

const { values } = parseFlags(command, process.argv.slice(3));
const base = values.url ?? `http://127.0.0.1:${process.env.PORT || "4010"}`;
if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol))
  refuse(command, `--url must be an http:// or https:// URL, not ${JSON.stringify(base)}`);
const waitSeconds = Number(values.wait);
if (values.wait.trim() === "" || !(waitSeconds >= 0))
  refuse(command, `--wait takes seconds (a number, 0 or more), not ${JSON.stringify(values.wait)}`);
const url = `${base.replace(/\/+$/, "")}/_sandbox/health`;

/** Undefined when the sandbox serves; otherwise what it answered, or why it could not be asked. */
async function ask(): Promise<string | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ASK_TIMEOUT_MS), headers: { accept: "application/json" } });
    const body = await res.text();
    if (res.status === 200) return undefined;
    const detail = (() => {
      try {
        return JSON.parse(body).detail as string | undefined;
      } catch {
        return undefined;
      }
    })();
    return `answered ${res.status}${detail ? `: ${detail}` : ""}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if ((error as Error).name === "TimeoutError") return `did not answer within ${ASK_TIMEOUT_MS / 1000} s`;
    return `cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`;
  }
}

const deadline = Date.now() + waitSeconds * 1000;
for (;;) {
  const wrong = await ask();
  if (wrong === undefined) {
    console.log(`${url}: serving`);
    process.exit(0);
  }
  if (Date.now() + AGAIN_MS > deadline) {
    console.error(`${command.name}: ${url} ${wrong}${waitSeconds > 0 ? ` (after ${waitSeconds} s of asking)` : ""}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, AGAIN_MS));
}
