// The bins' flags, as a user expects of a command: `--help` (or `-h`) prints the usage with each
// flag, what it does and its default, and exits 0, `--version` the package's version; an unknown
// flag prints one line that names it and --help, a malformed one a line that names it and then the
// usage, and both exit 2. node:util's parseArgs does the parsing.
import { parseArgs } from "node:util";
import { PortTaken, portTakenLine } from "./bind-port.ts";
import { requireNode, UnsupportedNodeError } from "./node-floor.ts";
import { packageVersion } from "./package-version.ts";

export interface Flag {
  type: "string" | "boolean";
  /** A string flag given once per value (`--allow-webhook-host a --allow-webhook-host b`). */
  multiple?: boolean;
  default?: string | boolean;
  /** The default as the usage says it, where the flag's absence means something other than a value (`in memory`). */
  shownDefault?: string;
  /** What the value is, in the usage: `--port N`. */
  value?: string;
  description: string;
}

export interface Command<F extends Record<string, Flag>> {
  /** The bin's name, which starts every line it prints about its flags. */
  name: string;
  /** What follows the name in the usage line: `<event|flow> --url URL …`. */
  synopsis: string;
  flags: F;
  /** Whether the command takes positional arguments (`payin-trigger checkout-paid`). */
  positionals?: boolean;
  /** Lines printed after the flags (the events and flows a command knows). */
  more?: string;
}

type ValueOf<F extends Flag> = F["type"] extends "boolean" ? boolean : F["multiple"] extends true ? string[] : string;
export type Values<F extends Record<string, Flag>> = {
  [K in keyof F]: F[K] extends { default: string | boolean } ? ValueOf<F[K]> : ValueOf<F[K]> | undefined;
};

export function usageOf<F extends Record<string, Flag>>({ name, synopsis, flags, more }: Command<F>): string {
  const rows = [
    ...Object.entries(flags).map(([flag, f]) => {
      const shown = `--${flag}${f.value ? ` ${f.value}` : ""}`;
      const fallback = f.shownDefault ?? (f.default === undefined || f.default === false ? undefined : String(f.default));
      return [
        shown,
        `${f.description}${f.multiple ? ", once per value" : ""}${fallback === undefined ? "" : ` (default: ${fallback})`}`,
      ] as const;
    }),
    ["-h, --help", "print this help and exit"] as const,
    ["--version", "print the package's version and exit"] as const,
  ];
  const width = Math.max(...rows.map(([shown]) => shown.length));
  return [
    `usage: ${name} ${synopsis}`,
    "",
    "flags:",
    ...rows.map(([shown, what]) => `  ${shown.padEnd(width)}  ${what}`),
    ...(more ? ["", more] : []),
  ].join("\n");
}

/** The flags of a server bin: where it listens. */
export const LISTEN_FLAGS = {
  port: {
    type: "string",
    value: "N",
    default: process.env.PORT ?? "4010",
    description: "port to listen on, 0 for a free one; PORT in the environment sets the default",
  },
  host: { type: "string", value: "H", default: "127.0.0.1", description: "interface to listen on" },
} as const satisfies Record<string, Flag>;

/** The --port as a number, or exits with a line that names the flag. */
export function portOf<F extends Record<string, Flag>>(command: Command<F>, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) refuse(command, `--port must be a port number, not ${JSON.stringify(value)}`);
  return port;
}

/** Prints why a server could not start, as one line, and exits 1; a taken port says how to pick another. */
export function failedToStart<F extends Record<string, Flag>>(command: Command<F>, error: Error): never {
  console.error(`${command.name}: ${error instanceof PortTaken ? portTakenLine(error, (n) => `--port ${n}`) : error.message}`);
  process.exit(1);
}

/**
 * Prints one line naming a flag the command does not take, and where its flags are, and exits 2: a typo's answer is that
 * line, not a screen of usage to scroll back through for it.
 */
export function unknownFlag<F extends Record<string, Flag>>(command: Command<F>, flag: string): never {
  console.error(`${command.name}: unknown flag ${flag} (${command.name} --help lists the flags)`);
  process.exit(2);
}

/** Prints one line naming what is wrong, then the usage, and exits 2. */
export function refuse<F extends Record<string, Flag>>(command: Command<F>, message: string): never {
  console.error(`${command.name}: ${message}\n${usageOf(command)}`);
  process.exit(2);
}

/** The flags and positionals of `args`; prints the usage or the version and exits on --help or --version, or a flag it does not take. */
export function parseFlags<const F extends Record<string, Flag>>(
  command: Command<F>,
  args = process.argv.slice(2),
): { values: Values<F>; positionals: string[] } {
  // Every bin parses its flags first: on a Node older than the package's floor, it says so and stops here.
  try {
    requireNode(command.name);
  } catch (error) {
    if (!(error instanceof UnsupportedNodeError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const options = Object.fromEntries(
    Object.entries(command.flags).map(([flag, { type, multiple, default: fallback }]) => [
      flag,
      { type, ...(multiple ? { multiple } : {}), ...(fallback === undefined ? {} : { default: fallback }) },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" }, version: { type: "boolean" } },
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const named = /'([^']+)'/.exec(message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") unknownFlag(command, named!);
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") refuse(command, `unexpected argument ${JSON.stringify(named)}`);
    refuse(command, message.split(". ")[0]!);
  }
  if (parsed.values.help) {
    console.log(usageOf(command));
    process.exit(0);
  }
  if (parsed.values.version) {
    console.log(packageVersion());
    process.exit(0);
  }
  const { help: _, version: __, ...values } = parsed.values;
  return { values: values as Values<F>, positionals: parsed.positionals };
}

/** Rows under a head, each column as wide as its widest cell, two spaces apart: what a command lists. */
export function formatTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = head.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  return [head, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
