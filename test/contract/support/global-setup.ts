import type { TestProject } from "vitest/node";
import { startMock } from "../../../src/mock/server.ts";
import { startSandbox } from "../../../src/sandbox/index.ts";
import { assertStayedOnLoopback, installLoopbackGuard } from "../../support/loopback-guard.ts";

declare module "vitest" {
  export interface ProvidedContext {
    payinBaseUrl: string;
    payinTarget: "mock" | "sandbox" | "server";
  }
}

/** The suite's answer to "what is PAYIN_BASE_URL?": what PAYIN_TARGET says, or a sandbox if its control API answers. */
export async function targetAt(baseUrl: string): Promise<"sandbox" | "server"> {
  const said = process.env.PAYIN_TARGET;
  if (said === "sandbox" || said === "server") return said;
  if (said) throw new Error(`PAYIN_TARGET must be "sandbox" or "server", not ${JSON.stringify(said)}`);
  const probe = await fetch(`${baseUrl}/_sandbox/v1/deliveries`, { headers: { Authorization: "Bearer contract-target-probe" } }).catch(
    () => undefined,
  );
  return probe?.status === 200 ? "sandbox" : "server";
}

export default async function setup(project: TestProject) {
  // The servers this process starts stay on loopback like everything else.
  installLoopbackGuard();
  const teardown = (close?: () => Promise<void>) => async () => {
    await close?.();
    assertStayedOnLoopback(`The ${project.name} project's global setup`);
  };
  // The suite's third target: the stateful sandbox, always started here.
  if (project.name === "contract-sandbox") {
    const sandbox = await startSandbox({ port: 0 });
    project.provide("payinBaseUrl", sandbox.url);
    project.provide("payinTarget", "sandbox");
    return teardown(() => sandbox.close());
  }
  const given = process.env.PAYIN_BASE_URL;
  if (given) {
    const baseUrl = given.replace(/\/$/, "");
    project.provide("payinBaseUrl", baseUrl);
    project.provide("payinTarget", await targetAt(baseUrl));
    return teardown();
  }
  const mock = await startMock({ port: 0 });
  project.provide("payinBaseUrl", mock.url);
  project.provide("payinTarget", "mock");
  return teardown(() => mock.close());
}
