// Vitest setup file of every project: the loopback guard in each test file's worker (the same
// module the global setup preloads into every process; importing it installs it when no preload
// did), each refusal logged with the test file it happened in, and the file failed when its own
// process tried to leave loopback.
import path from "node:path";
import { afterAll, expect } from "vitest";
import { assertStayedOnLoopback, installLoopbackGuard, setLoopbackWhere } from "./loopback-guard.mjs";

installLoopbackGuard();
const file = expect.getState().testPath;
setLoopbackWhere(file ? path.relative(process.cwd(), file) : "");
afterAll(() => assertStayedOnLoopback("this test file"));
