// @ts-nocheck
// `npm start` (after the build and the docs): the mock on PORT (default 4010) and the docs
// site on DOCS_PORT (default PORT + 1), both on 127.0.0.1, until interrupted.
import path from "node:path";
import { startMock } from "../src/mock/server.ts";
import { root } from "./lib/paths.ts";
import { serveStatic } from "./lib/static-server.ts";

const port = Number(process.env.PORT ?? 4010);
const mock = await startMock({ port });
const docs = await serveStatic(path.join(root, "dist", "docs"), "/", Number(process.env.DOCS_PORT ?? port + 1)).catch(async (error: unknown) => {
  await mock.close();
  throw error;
});
console.log(`mock: ${mock.url}   (try: curl -H "Authorization: Bearer t" ${mock.url}/webhooks)`);
console.log(`docs: ${docs.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void Promise.all([mock.close(), docs.close()]).then(() => process.exit(0)));
