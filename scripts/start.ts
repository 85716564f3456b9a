// `npm start`: brings generated/, the conformance guide's tables of checks and the docs site up to
// date, skipping each when a hash of its inputs and outputs says it already is, then serves the
// sandbox on PORT (default 4010) and the docs on DOCS_PORT (default PORT + 1), both on 127.0.0.1,
// until interrupted (`npm run mock` serves the Prism mock instead). Every step prints its time.
// The API answers while the docs are still being built.
import module from "node:module";
import path from "node:path";
import { portTakenLine } from "../src/lib/bind-port.ts";
import { root } from "./lib/paths.ts";
import { serveStatic } from "./lib/static-server.ts";
import { step } from "./lib/steps.ts";
import { buildDocs, buildGenerated, buildGuides } from "./lib/build-steps.ts";

// The build and docs tools are thousands of modules: Node's compile cache makes every start after the first faster.
module.enableCompileCache?.();

const port = Number(process.env.PORT ?? 4010);
const docsPort = Number(process.env.DOCS_PORT ?? port + 1);

/** Starts a server on `port`, which `variable` sets: a taken port is told with how to pick another. */
async function serving<T>(variable: string, port: number, serve: () => Promise<T>): Promise<T> {
  try {
    return await serve();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    throw new Error(
      portTakenLine({ port, host: "127.0.0.1" }, (n) => `${variable}=${n}`),
      { cause: error },
    );
  }
}

/** What `npm start` serves as the API: this line is the one to change to serve another server. */
// Imported once generated/ is fresh: the sandbox loads its validators from there.
const serveApi = () => serving("PORT", port, async () => (await import("../src/sandbox/index.ts")).startSandbox({ port }));

// Until all is served, an interrupt stops the steps too (their processes end with this one).
const stopEarly = () => process.exit(130);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, stopEarly);

await buildGenerated({ quiet: true });

const starting = step("start the API", serveApi, (api) => `answering on ${api.url}`);
const [api, docs] = await Promise.all([
  starting,
  (async () => {
    await buildGuides({ quiet: true });
    await buildDocs({ quiet: true });
    // The docs' try-it sends requests to this sandbox: try-it.json tells them where it is.
    const tryIt = { "try-it.json": JSON.stringify({ sandbox: (await starting).url }) };
    return step(
      "serve the docs",
      () => serving("DOCS_PORT", docsPort, () => serveStatic(path.join(root, "dist", "docs"), "/", docsPort, tryIt)),
      (docs) => `on ${docs.url}`,
    );
  })(),
]).catch((error: unknown) => {
  console.error(`npm start: ${(error as Error).message}`);
  process.exit(1);
});
module.flushCompileCache?.();

// A request that succeeds on a fresh account: any bearer token is an account of its own.
console.log(
  `\nsandbox: ${api.url}   (try: curl -H "Authorization: Bearer t" ` +
    `"${api.url}/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL")`,
);
console.log(`docs: ${docs.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.off(signal, stopEarly);
  process.once(signal, () => void Promise.all([api.close(), docs.close()]).then(() => process.exit(0)));
}
