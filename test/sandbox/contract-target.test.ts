// The contract suite pointed at a running server (PAYIN_BASE_URL) tells a sandbox someone else
// started from a real implementation, so that a merchant's run and an implementer's are both right.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { targetAt } from "../contract/support/global-setup.ts";

let sandbox: RunningSandbox;
let mock: RunningMock;
beforeAll(async () => {
  [sandbox, mock] = await Promise.all([startSandbox({ port: 0 }), startMock({ port: 0 })]);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all([sandbox.close(), mock.close()]);
});

describe("the contract suite's target", () => {
  it("is a sandbox where the control API answers, and a server elsewhere", async () => {
    vi.stubEnv("PAYIN_TARGET", undefined);
    expect(await targetAt(sandbox.url)).toBe("sandbox");
    expect(await targetAt(mock.url)).toBe("server");
    expect(await targetAt("http://127.0.0.1:1")).toBe("server");
  });

  it("is what PAYIN_TARGET says, when it says one of the two", async () => {
    vi.stubEnv("PAYIN_TARGET", "server");
    expect(await targetAt(sandbox.url)).toBe("server");
    vi.stubEnv("PAYIN_TARGET", "sandbox");
    expect(await targetAt(mock.url)).toBe("sandbox");
    vi.stubEnv("PAYIN_TARGET", "mock");
    await expect(targetAt(mock.url)).rejects.toThrow('PAYIN_TARGET must be "sandbox" or "server", not "mock"');
  });
});
