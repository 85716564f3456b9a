// `npm start` (after the build and the docs): the stateful sandbox on PORT (default 4010) and
// the docs site on DOCS_PORT (default PORT + 1), both on 127.0.0.1, until interrupted.
// (`npm run mock` serves the Prism mock instead.)
import path from "node:path";
import { startSandbox } from "../src/sandbox/index.ts";
import { root } from "./lib/paths.ts";
import { serveStatic } from "./lib/static-server.ts";

const port = Number(process.env.PORT ?? 4010);
const mock = await startSandbox({ port });
const docs = await serveStatic(path.join(root, "dist", "docs"), "/", Number(process.env.DOCS_PORT ?? port + 1)).catch(async (error: unknown) => {
  await mock.close();
  throw error;
});
console.log(`sandbox: ${mock.url}   (try: curl -H "Authorization: Bearer t" ${mock.url}/webhooks)`);
console.log(`docs: ${docs.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void Promise.all([mock.close(), docs.close()]).then(() => process.exit(0)));
