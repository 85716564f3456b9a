// The installed payin-sandbox, hosted, in a network namespace of the test's own: no connection to
// an address of its own network, by name or written out, but to a network it is told to.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOOPBACK_GUARD } from "../support/loopback-global-setup.ts";
import { exec, project, work } from "./support/consumer.ts";

/** Why a network namespace of the test's own cannot be made here: it takes root, unshare and ip (CI has all three). */
const namespaceMissing =
  process.getuid?.() !== 0 || !existsSync("/usr/bin/unshare") || !existsSync("/usr/sbin/ip")
    ? "the hosted sandbox's network test skipped: it needs root, unshare (util-linux) and ip (iproute2); CI has them"
    : undefined;
if (namespaceMissing && process.env.CI) throw new Error(namespaceMissing.replace("skipped", "cannot skip in CI"));

describe.skipIf(namespaceMissing)("the installed payin-sandbox, hosted, in a network namespace of its own", () => {
  it("connects to no private, link-local or loopback address, by name or written out, but to a network it is told to", async () => {
    const hosts = path.join(work, "hosts");
    writeFileSync(hosts, "127.0.0.1 localhost\n10.0.0.5 internal.example\n169.254.169.254 metadata.example\n");
    const setUp = [
      "ip link set lo up",
      ...["10.0.0.5/32", "192.168.7.7/32", "169.254.169.254/32"].map((a) => `ip addr add ${a} dev lo`),
      "ip -6 addr add fd00::1/128 dev lo",
      `mount --bind '${hosts}' /etc/hosts`,
      `exec '${process.execPath}' hosted-namespace.mjs`,
    ].join(" && ");
    // The namespace's only interface is its loopback, which holds those addresses: nothing can leave the machine. The suite's
    // loopback guard, which counts 10.0.0.5 as outside, is left out of these processes, as what they connect to is the check.
    const nodeOptions = (process.env.NODE_OPTIONS ?? "").split(/\s+/).filter((o) => o !== `--import=${LOOPBACK_GUARD}`);
    const { stdout } = await exec("unshare", ["--net", "--mount", "--", "sh", "-c", setUp], {
      cwd: project,
      env: { ...process.env, NODE_OPTIONS: nodeOptions.join(" ") },
    });
    const seen = JSON.parse(stdout);
    const refusedAtRegistration = {
      registered: 422,
      errors: [
        { field: "url", message: expect.stringMatching(/^must not have a loopback, private, link-local or other non-public address/) },
      ],
    };
    expect(seen.literal).toEqual({
      "10.0.0.5": refusedAtRegistration,
      "192.168.7.7": refusedAtRegistration,
      "169.254.169.254": refusedAtRegistration,
      "fd00::1": refusedAtRegistration,
      "127.0.0.1": refusedAtRegistration,
    });
    expect(seen.named).toEqual({
      "https://internal.example:8443/hook": {
        registered: 201,
        error: expect.stringMatching(/^Not sent: internal\.example is not a public address/),
      },
      "https://metadata.example:8443/hook": {
        registered: 201,
        error: expect.stringMatching(/^Not sent: metadata\.example is not a public address/),
      },
      "http://localhost:8443/hook": {
        registered: 201,
        error: expect.stringMatching(/^Not sent: localhost is not a public address/),
      },
    });
    expect(seen.before).toEqual({ "10.0.0.5": 0, "192.168.7.7": 0, "169.254.169.254": 0, "fd00::1": 0, "127.0.0.1": 0 });
    // Allowed by --allow-webhook-network 10.0.0.0/8: the attempt is made (the listener there takes the connection and drops it).
    expect(seen.allowed).toEqual({ registered: 201, error: expect.stringMatching(/^The request failed: /) });
    expect(seen.after["10.0.0.5"]).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
