// The executables' code as the one CommonJS file a Node single executable runs (Node 24's SEA takes
// no ES module for its main): entry.ts and all it imports, src/ straight from its TypeScript, and
// the optional peers a sandbox uses (pg for --database, prom-client for /_sandbox/metrics) inside.
// Two passes, because the bins wait at their top level (top-level await), which CommonJS has not:
// the first makes one ES module in which each bin is a lazy, async part (entry.ts imports them with
// import()), so that nothing waits at the top any more; the second turns that into CommonJS.
import { readFileSync } from "node:fs";
import path from "node:path";
import { rolldown, type Plugin } from "rolldown";
import { root } from "../lib/paths.ts";

/** The package's files that the bundled code reads at run time: the executable's assets, read by name (package-root.ts here). */
export const ASSETS = ["generated/openapi.json", "generated/payin.arazzo.json"] as const;

/** What reads the package's own files in src/, answered in the executable by its assets and its build's version. */
function withoutPackageFiles(version: string): Plugin {
  const replaced = new Map([
    [path.join(root, "src", "package-root.ts"), readFileSync(path.join(import.meta.dirname, "package-root.ts"), "utf8")],
    [path.join(root, "src", "lib", "package-version.ts"), `export const packageVersion = () => ${JSON.stringify(version)};\n`],
  ]);
  return { name: "payin-without-package-files", load: (id) => replaced.get(id) ?? null };
}

/** Bundles entry.ts into `file` (one CommonJS file); `work` holds the first pass's module. */
export async function bundleExecutable({ file, work }: { file: string; work: string }): Promise<void> {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const esm = path.join(work, "executable.mjs");
  // pg-native: pg's optional native binding, loaded only when asked for by name (pg.native), which the sandbox never does.
  const external = ["pg-native"];
  const first = await rolldown({
    input: path.join(import.meta.dirname, "entry.ts"),
    cwd: root,
    platform: "node",
    external,
    plugins: [withoutPackageFiles(version)],
    logLevel: "warn",
  });
  await first.write({ file: esm, format: "es", codeSplitting: false });
  await first.close();
  const second = await rolldown({ input: esm, platform: "node", external, logLevel: "warn" });
  await second.write({ file, format: "cjs", codeSplitting: false });
  await second.close();
}
