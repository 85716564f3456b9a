// The main of the single executables: one program serving payin-sandbox, payin-conformance and
// payin-listen, chosen by the name it is started as (payin-sandbox-linux-x64, or payin-listen
// through a link of that name), or else by its first argument (`payin sandbox --port 4010`). One
// program, because the three would be the same Node runtime but for 1 % of their bytes: three
// names for one file cost the disk, the build and an image one copy. Each command is its bin's own code, so the two
// answer alike: the same usage, the same one-line errors, the same exit codes.
import path from "node:path";

const COMMANDS = {
  sandbox: () => import("../../src/sandbox/cli.ts"),
  conformance: () => import("../../src/conformance/cli.ts"),
  listen: () => import("../../src/listen/cli.ts"),
} as const;
type Name = keyof typeof COMMANDS;
const isName = (word: string | undefined): word is Name => word !== undefined && Object.hasOwn(COMMANDS, word);

/** The command a file name stands for: payin-sandbox, payin-sandbox-linux-x64. */
const named = (file: string) => /^payin-([a-z]+)(?:-|$)/.exec(path.basename(file))?.[1];

// argv0 is the name it was started by, a symbolic link's included; execPath the file itself, a hard link's name.
let name = [named(process.argv0), named(process.execPath)].find(isName);
if (name === undefined && isName(process.argv[2])) name = process.argv.splice(2, 1)[0] as Name;

if (name === undefined) {
  console.error(
    `usage: ${path.basename(process.execPath)} sandbox|conformance|listen [flags]   ` +
      "(or run it under the name payin-sandbox, payin-conformance or payin-listen)",
  );
  process.exit(2);
}
const args = process.argv.slice(2);
// The flows run Redocly's respect, a Node.js program of its own that an executable does not carry.
if (name === "conformance" && args[0] === "flows" && !args.some((arg) => arg === "--help" || arg === "-h" || arg === "--version")) {
  console.error(
    "payin-conformance: the flows run with Redocly's respect, a Node.js program that this executable does not carry: " +
      "run them with the npm package's payin-conformance (npx payin-conformance flows …)",
  );
  process.exit(2);
}
void COMMANDS[name]();
