// Type-level tests (checked by `npm run typecheck`): the kit's paths are templates of the
// documents, so a path the contract and the control API lack fails to compile, as does one
// without its parameters. The runtime part fills templates in, and finds every path the kit
// writes in fixtures.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { PATHS } from "../../src/conformance/fixtures.ts";
import { notAPath, pathTo } from "../../src/conformance/paths.ts";

describe("the kit's paths", () => {
  it("are the documents' templates, each parameter given and encoded", () => {
    expect(pathTo("/webhooks")).toBe("/webhooks");
    expect(pathTo("/_sandbox/v1/clock/advance")).toBe("/_sandbox/v1/clock/advance");
    expect(pathTo("/api/v1/earn/transactions/{transaction_id}/", { transaction_id: "txn/1 2" })).toBe(
      "/api/v1/earn/transactions/txn%2F1%202/",
    );
    expect(PATHS.deliveries("ps_1")).toBe("/_sandbox/v1/deliveries?session_id=ps_1");
  });

  it("refuse, when compiled, a path the documents lack or a parameter missing or foreign", () => {
    const wrongCalls = [
      // @ts-expect-error: the contract has no refunds
      () => pathTo("/api/v1/earn/refunds/"),
      // @ts-expect-error: a path without its trailing slash is another path
      () => pathTo("/api/v1/send/counterparties"),
      // @ts-expect-error: the control API has no such operation
      () => pathTo("/_sandbox/v1/clock/rewind"),
      // @ts-expect-error: the transaction's id is missing
      () => pathTo("/api/v1/earn/transactions/{transaction_id}/"),
      // @ts-expect-error: a parameter of another template
      () => pathTo("/api/v1/earn/transactions/{transaction_id}/", { session_id: "ps_1" }),
      // @ts-expect-error: a template without parameters takes none
      () => pathTo("/webhooks", { id: "x" }),
      // @ts-expect-error: the contract has this one
      () => notAPath("/webhooks"),
    ];
    expect(wrongCalls).toHaveLength(7);
  });

  it("name a path the documents lack as such, which stops compiling when one of them gains it", () => {
    expect(notAPath("/api/v1/earn/refunds/")).toBe(PATHS.unknown);
  });

  it("are written in fixtures.ts alone: no other file of the kit spells a path of the documents", () => {
    const dir = path.join(root, "src", "conformance");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && f !== "fixtures.ts");
    const spelled = files.flatMap((file) =>
      readFileSync(path.join(dir, file), "utf8")
        .split("\n")
        .map((line, i) => [`${file}:${i + 1}`, line] as const)
        // Comments may name a path, as prose does.
        .filter(([, line]) => !/^\s*(\/\/|\/?\*)/.test(line) && /["'`]\/(api\/v1|_sandbox\/v1|webhooks)\b/.test(line))
        .map(([where]) => where),
    );
    expect(spelled).toEqual([]);
  });
});
