// The Postman collection of the site: Portman (Postman's converter, openapi-to-postmanv2, with
// contract tests on every request) makes it from the OpenAPI bundle, as portman-config.json
// says: each answer's status, type and schema checked, the counterparty created first and its id
// used by the session. Its baseUrl is the sandbox's default address; newman runs it green against
// a fresh sandbox (test/docs/postman.test.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./exec.ts";

export const POSTMAN_COLLECTION = "payin.postman_collection.json";

const config = fileURLToPath(new URL("./portman-config.json", import.meta.url));

export async function buildPostmanCollection(bundle: string, output: string): Promise<void> {
  // Portman writes its working files under the folder it runs in.
  const work = mkdtempSync(path.join(tmpdir(), "payin-portman-"));
  try {
    await run(
      "portman",
      ["--local", bundle, "--portmanConfigFile", config, "--output", output, "--baseUrl", "http://127.0.0.1:4010"],
      {},
      work,
    );
    // Portman indents it; a tool reads it, and the site keeps under its size.
    writeFileSync(output, JSON.stringify(JSON.parse(readFileSync(output, "utf8"))));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
