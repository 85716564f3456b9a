// @ts-nocheck
import type { TestProject } from "vitest/node";
import { startMock } from "../../../src/mock/server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    payinBaseUrl: string;
    payinTarget: "mock" | "server";
  }
}

export default async function setup(project: TestProject) {
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
