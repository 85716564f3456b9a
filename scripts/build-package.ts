// Compiles the published package into dist/: tsc for src/ and the generated TypeScript, plus
// the generated validators, which are JavaScript with hand-off declarations already.
import { execFileSync } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { bin, root } from "./lib/paths.ts";
import { RUNTIME_FILE } from "./lib/standalone-validators.ts";

const dist = path.join(root, "dist");
for (const dir of ["src", "generated"]) rmSync(path.join(dist, dir), { recursive: true, force: true });
execFileSync(bin("tsc"), ["-p", path.join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
for (const file of [
  "event-validators.js",
  "event-validators.d.ts",
  "sandbox-requests.js",
  "sandbox-requests.d.ts",
  "response-validators.js",
  "response-validators.d.ts",
  RUNTIME_FILE,
])
  copyFileSync(path.join(root, "generated", file), path.join(dist, "generated", file));
console.log("built dist/");
