import type { TestProject } from "vitest/node";
import { startMock } from "../../../src/mock/server.ts";
import { startSandbox } from "../../../src/sandbox/index.ts";

declare module "vitest" {
  export interface ProvidedContext {
    payinBaseUrl: string;
    payinTarget: "mock" | "sandbox" | "server";
  }
}

export default async function setup(project: TestProject) {
  // The suite's third target: the stateful sandbox, always started here.
  if (project.name === "contract-sandbox") {
    const sandbox = await startSandbox({ port: 0 });
    project.provide("payinBaseUrl", sandbox.url);
    project.provide("payinTarget", "sandbox");
    return () => sandbox.close();
  }
  const given = process.env.PAYIN_BASE_URL;
  if (given) {
    project.provide("payinBaseUrl", given.replace(/\/$/, ""));
    project.provide("payinTarget", "server");
    return;
  }
  const mock = await startMock({ port: 0 });
  project.provide("payinBaseUrl", mock.url);
  project.provide("payinTarget", "mock");
  return () => mock.close();
}
