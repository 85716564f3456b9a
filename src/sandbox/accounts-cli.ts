// `payin-sandbox accounts create|list|revoke`: the accounts a hosted sandbox issues to its tenants
// (`payin-sandbox --accounts issued` serves only those), on the store the server is given (--db
// FILE or --database URL, as the server's own flags). `create` prints the new token once: the
// store keeps only its hash. `list` never shows a token. `revoke` deletes the account with all it
// holds, and its token opens nothing any more, on every process serving the store.
import { formatTable, parseFlags, refuse, type Command } from "../lib/cli.ts";
import { isoTime } from "../lib/time.ts";
import { loadQuietly } from "./load-quietly.ts";
import type { StoreLocation } from "./store/index.ts";
import { isPostgresUrl } from "./store/location.ts";

const STORE_FLAGS = {
  db: { type: "string", value: "FILE", shownDefault: "none", description: "the SQLite file the sandbox keeps its state in" },
  database: {
    type: "string",
    value: "URL",
    shownDefault: "$PAYIN_SANDBOX_DATABASE_URL",
    description: "the PostgreSQL (postgres://…) the sandbox keeps its state in",
  },
} as const;

const command = {
  name: "payin-sandbox accounts",
  synopsis: "create [--name NAME] | list | revoke ID  (--db FILE | --database URL)",
  flags: { ...STORE_FLAGS, name: { type: "string", value: "NAME", description: "with create: whom the account is for" } },
  positionals: true,
  more:
    "create prints a new account's token once (the store keeps only its hash); list shows each issued account's id, name,\n" +
    "creation and last request, never a token; revoke deletes an account with all it holds, and its token opens nothing.",
} as const satisfies Command<any>;

const { values, positionals } = parseFlags(command, process.argv.slice(3));
const [action, ...rest] = positionals;
if (action !== "create" && action !== "list" && action !== "revoke")
  refuse(command, `give create, list or revoke, not ${action ?? "nothing"}`);
if (action === "revoke" ? rest.length !== 1 : rest.length > 0) refuse(command, `unexpected argument ${JSON.stringify(rest.at(-1) ?? "")}`);
if (values.name !== undefined && action !== "create") refuse(command, "--name goes with create");
const database = values.database ?? (values.db === undefined ? process.env.PAYIN_SANDBOX_DATABASE_URL || undefined : undefined);
if (values.db !== undefined && values.database !== undefined)
  refuse(command, "--db (a SQLite file) and --database (PostgreSQL) name two stores: give one");
if (database !== undefined && !isPostgresUrl(database))
  refuse(command, `--database takes a postgres:// URL, not ${JSON.stringify(database)}`);
if (database === undefined && values.db === undefined)
  refuse(command, "give the store the sandbox is served from: --db FILE or --database URL (an in-memory sandbox issues no accounts)");
const location: StoreLocation = database === undefined ? { file: values.db } : { postgres: database };

// The store (node:sqlite) is loaded once the flags, and so the Node, are checked.
const { Store } = await loadQuietly(() => import("./store/index.ts"));
const store = await Store.open(location).catch((error: Error) => {
  console.error(`${command.name}: ${error.message}`);
  process.exit(1);
});
try {
  if (action === "create") {
    const { id, token } = await store.accounts.issue(values.name ?? null);
    console.log(`account ${id}${values.name ? ` (${values.name})` : ""} created; its token, shown this once:`);
    console.log(token);
  } else if (action === "list") {
    const rows = (await store.accounts.issued()).map((a) => [
      String(a.id),
      a.name ?? "",
      isoTime(a.createdAtMs),
      a.lastRequestMs > a.createdAtMs ? isoTime(a.lastRequestMs) : "never",
    ]);
    console.log(rows.length === 0 ? "no account issued yet" : formatTable(["id", "name", "created", "last request"], rows));
  } else {
    const id = Number(rest[0]);
    if (!Number.isSafeInteger(id) || !(await store.accounts.isIssued(id))) {
      console.error(`${command.name}: no issued account has the id ${rest[0]}; payin-sandbox accounts list shows them`);
      process.exitCode = 1;
    } else {
      await store.revoke(id);
      console.log(`account ${id} revoked: deleted with all it held`);
    }
  }
} finally {
  await store.close();
}
