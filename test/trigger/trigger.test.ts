import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { EVENT_FLOWS } from "../../generated/event-flows.ts";
import { EXAMPLE_SECRET } from "../support/events.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

const run = promisify(execFile);
const trigger = (...args: string[]) =>
  run(process.execPath, [path.join(root, "src", "trigger", "cli.ts"), ...args], { cwd: root }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: `${error.stdout}${error.stderr}` }),
  );

let receiver: Receiver | undefined;
afterEach(() => receiver?.close());

describe("npm run trigger", () => {
  it.each(Object.entries(EVENT_FLOWS))("delivers the %s flow, every event verified by the receiver", async (flow, types) => {
    receiver = await startReceiver({ secret: EXAMPLE_SECRET });
    const { code, stdout } = await trigger(flow, "--url", receiver.url, "--secret", EXAMPLE_SECRET);

    expect(code, stdout).toBe(0);
    expect(receiver.events.map((e) => e.type)).toEqual([...types]);
    const sessions = new Set(receiver.events.map((e) => e.data.session_id));
    const counterparties = new Set(receiver.events.map((e) => e.data.counterparty_id));
    const transactions = new Set(receiver.events.flatMap((e) => ("transaction_id" in e.data ? [e.data.transaction_id] : [])));
    expect([sessions.size, counterparties.size, transactions.size]).toEqual([1, 1, types.some((t) => t.startsWith("transaction")) ? 1 : 0]);
    expect(new Set(receiver.events.map((e) => e.id)).size).toBe(types.length);
    expect(stdout).toContain(`${types.length} of ${types.length} delivered`);
  });

  it("sends a single event by name", async () => {
    receiver = await startReceiver({ secret: EXAMPLE_SECRET });
    const { code } = await trigger("transaction-failed", "--url", receiver.url, "--secret", EXAMPLE_SECRET);
    expect(code).toBe(0);
    expect(receiver.events).toMatchObject([{ type: "transaction-failed", data: { failure_reason: "card_declined" } }]);
  });

  it("retries a failed delivery with the same webhook-id, and reports each attempt", async () => {
    receiver = await startReceiver({ secret: EXAMPLE_SECRET });
    receiver.answer = ({ n }) => (n <= 2 ? 500 : 204);
    const { code, stdout } = await trigger("session-created", "--url", receiver.url, "--secret", EXAMPLE_SECRET, "--backoff-ms", "20");
    expect(code, stdout).toBe(0);
    expect(receiver.attempts.map((a) => a.status)).toEqual([500, 500, 204]);
    expect(new Set(receiver.attempts.map((a) => a.id)).size).toBe(1);
    expect(stdout).toMatch(/attempt 1: 500[\s\S]*attempt 2: 500[\s\S]*attempt 3: 204/);
  });

  it("gives up after the bounded number of attempts and exits non-zero", async () => {
    receiver = await startReceiver({ secret: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD" });
    const { code, stdout } = await trigger(
      "expiry",
      "--url",
      receiver.url,
      "--secret",
      EXAMPLE_SECRET,
      "--attempts",
      "3",
      "--backoff-ms",
      "5",
    );
    expect(code).toBe(1);
    expect(receiver.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(stdout).toContain("0 of 2 delivered");
  });

  it("takes the secret without its whsec_ prefix too, as verifyWebhook does", async () => {
    receiver = await startReceiver({ secret: EXAMPLE_SECRET });
    const { code, stdout } = await trigger("session-created", "--url", receiver.url, "--secret", EXAMPLE_SECRET.slice("whsec_".length));
    expect(code, stdout).toBe(0);
    expect(receiver.events.map((e) => e.type)).toEqual(["session-created"]);
  });

  it.each(["plain", "whsec_not base64", "whsec_"])(
    "refuses --secret %j, naming the form a secret has, with exit code 2",
    async (secret) => {
      const { code, stdout } = await trigger("success", "--url", "http://127.0.0.1:9/", "--secret", secret);
      expect(code).toBe(2);
      expect(stdout.split("\n")[0]).toBe(
        "payin-trigger: --secret must be the endpoint's signing secret: whsec_ followed by base64, " +
          "as POST /webhooks returns it (the whsec_ prefix may be left off)",
      );
    },
  );

  it("explains what it needs when called wrongly", async () => {
    for (const args of [
      ["nonsense", "--url", "http://127.0.0.1:9/", "--secret", EXAMPLE_SECRET],
      ["success", "--secret", EXAMPLE_SECRET],
      ["success", "--url", "http://127.0.0.1:9/", "--secret", "plain"],
    ]) {
      const { code, stdout } = await trigger(...args);
      expect(code).toBe(2);
      expect(stdout).toMatch(/^payin-trigger: .+\nusage:/);
    }
  });
});
