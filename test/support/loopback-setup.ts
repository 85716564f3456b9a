// Vitest setup file of every project: the loopback guard in each test file's worker.
import { afterAll } from "vitest";
import { assertStayedOnLoopback, installLoopbackGuard } from "./loopback-guard.ts";

installLoopbackGuard();
afterAll(() => assertStayedOnLoopback("this test file"));
