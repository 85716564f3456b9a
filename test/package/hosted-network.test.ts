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

/** Of each special-purpose range the guard must refuse, an address the namespace's loopback holds (NAT64 and 6to4 of 10.0.0.5 too). */
const SPECIAL = {
  "10.0.0.5": "internal.example",
  "192.168.7.7": "office.example",
  "169.254.169.254": "metadata.example",
  "127.0.0.1": undefined,
  "100.64.0.5": "cgnat.example",
  "192.0.0.192": "cloud-metadata.example",
  "198.18.0.1": "benchmark.example",
  "192.0.2.1": "documentation.example",
  "fd00::1": "unique-local.example",
  "64:ff9b::a00:5": "nat64.example",
  "2002:a00:5::1": "sixtofour.example",
  "2001::1": "teredo.example",
  "fec0::1": "site-local.example",
  "2001:db8::1": "documentation6.example",
  "::a00:5": "ipv4-compatible.example",
} as const;
/** 10.0.0.5 written as a URL may write it: in hexadecimal, as one number, IPv4-mapped, NAT64-embedded. */
const FORMS = ["0x0a000005", "167772165", "::ffff:10.0.0.5", "64:ff9b::10.0.0.5"];
/** Where a merchant's endpoint is: a public address, which the namespace's loopback holds too. */
const PUBLIC = "45.79.112.1";

describe.skipIf(namespaceMissing)("the installed payin-sandbox, hosted, in a network namespace of its own", () => {
  it("connects to no special-purpose address by any name or form, says none, and delivers to a public one while DNS stalls", async () => {
    const names = Object.entries(SPECIAL).filter(([, name]) => name !== undefined) as Array<[string, string]>;
    const hosts = path.join(work, "hosts");
    writeFileSync(
      hosts,
      ["127.0.0.1 localhost", ...names.map(([address, name]) => `${address} ${name}`), `${PUBLIC} fast.example`, ""].join("\n"),
    );
    const resolv = path.join(work, "resolv.conf");
    writeFileSync(resolv, "nameserver 127.0.0.53\noptions timeout:1 attempts:1\n");
    // The merchant's certificate, made here: the sandbox checks a public endpoint's, and is told to trust this one.
    const [key, cert] = [path.join(work, "endpoint.key"), path.join(work, "endpoint.crt")];
    await exec("openssl", [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
      ...["-subj", "/CN=fast.example", "-addext", "subjectAltName=DNS:fast.example", "-keyout", key, "-out", cert],
    ]);
    const addresses = Object.keys(SPECIAL).filter((a) => a !== "127.0.0.1");
    const setUp = [
      "ip link set lo up",
      ...[...addresses, PUBLIC].map((a) => (a.includes(":") ? `ip -6 addr add ${a}/128 dev lo` : `ip addr add ${a}/32 dev lo`)),
      `mount --bind '${hosts}' /etc/hosts`,
      `mount --bind '${resolv}' /etc/resolv.conf`,
      `exec '${process.execPath}' hosted-namespace.mjs`,
    ].join(" && ");
    // The namespace's only interface is its loopback, which holds those addresses: nothing can leave the machine. The suite's
    // loopback guard, which counts 10.0.0.5 as outside, is left out of these processes, as what they connect to is the check.
    const nodeOptions = (process.env.NODE_OPTIONS ?? "").split(/\s+/).filter((o) => o !== `--import=${LOOPBACK_GUARD}`);
    const env = {
      ...process.env,
      NODE_OPTIONS: nodeOptions.join(" "),
      SPECIAL_ADDRESSES: JSON.stringify(Object.keys(SPECIAL)),
      SPECIAL_NAMES: JSON.stringify(names.map(([, name]) => name)),
      WRITTEN_FORMS: JSON.stringify(FORMS),
      PUBLIC_ADDRESS: PUBLIC,
      TLS_KEY: key,
      TLS_CERT: cert,
    };
    const { stdout } = await exec("unshare", ["--net", "--mount", "--", "sh", "-c", setUp], { cwd: project, env });
    const seen = JSON.parse(stdout);
    const refusedAtRegistration = {
      registered: 422,
      errors: [
        { field: "url", message: expect.stringMatching(/^must not have a loopback, private, link-local or other non-public address/) },
      ],
    };
    expect(seen.literal).toEqual(Object.fromEntries([...Object.keys(SPECIAL), ...FORMS].map((a) => [a, refusedAtRegistration])));
    for (const [address, name] of names) {
      expect(seen.named[name], name).toMatchObject({
        registered: 201,
        error: expect.stringMatching(new RegExp(`^Not sent: ${name.replace(/\./g, "\\.")} does not resolve to a public address`)),
      });
      // Nothing of what the name resolves to: the log says the rule, never the address.
      expect(seen.named[name].log, name).not.toContain(address);
    }
    expect(seen.named.localhost).toMatchObject({
      registered: 201,
      error: expect.stringMatching(/^Not sent: localhost does not resolve to a public address/),
    });
    expect(
      Object.values(seen.before).every((n) => n === 0),
      JSON.stringify(seen.before),
    ).toBe(true);
    // Allowed by --allow-webhook-network 10.0.0.0/8: the attempt is made (the listener there takes the connection and drops it).
    expect(seen.allowed).toMatchObject({ registered: 201, error: expect.stringMatching(/^The request failed: /) });
    expect(seen.after["10.0.0.5"]).toBeGreaterThanOrEqual(1);
    // Another account's delivery arrives within 2 s, while twenty sessions of one account still wait on a name that never resolves.
    expect(seen.calmMs).toBeLessThan(2000);
    expect(seen.stalledLog).toBe(0);
  }, 90_000);
});
