// The sandbox: the contract's six operations with real state, and the control API, on
// node:http and node:sqlite in one process.
import type { Server } from "node:http";
import { handlers } from "./operations/index.ts";
import { problem } from "./problems.ts";
import { handleRequest, type Sandbox } from "./requests.ts";
import { createRouter } from "./router.ts";
import { Store } from "./store/index.ts";
import { sendJson } from "./http.ts";
import { listen } from "../lib/listen.ts";

export interface SandboxOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** SQLite database file that keeps the state across restarts. Default `:memory:`. */
  db?: string;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`: the base URL of the six operations and of `/_sandbox/v1/`. */
  url: string;
  port: number;
  /** Stops listening, closes open connections, and closes the database. */
  close(): Promise<void>;
}

// Start-up: an ESM import of node:http builds its namespace, which reads every export, lazy
// ones included, and loads fetch's undici and HTTP/2 on the way (a third of the sandbox's
// start-up); the builtin itself, taken as CommonJS would, does not.
const { createServer } = process.getBuiltinModule("node:http");

/** How often work that comes due as real time passes (expiries) is done. */
const TICK_MS = 1000;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const store = new Store(options.db);
  const sandbox: Sandbox = { store, route: createRouter(), handlers };

  const server = createServer((req, res) => {
    handleRequest(sandbox, req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return void res.destroy();
      console.error(`payin-sandbox: ${(error as Error).stack ?? error}`);
      const body = problem(500, "internal_error", `The sandbox failed on this request: ${(error as Error).message}`);
      sendJson(res, 500, JSON.stringify(body));
    });
  });
  let port: number;
  try {
    port = await listen(server, options.port ?? 4010, host);
  } catch (error) {
    store.close();
    throw error;
  }
  const ticker = setInterval(() => store.dueJobs.runForAll(), TICK_MS);
  ticker.unref();

  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        clearInterval(ticker);
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => store.close())),
  };
}
