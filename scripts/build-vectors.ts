// Writes the webhook test vectors and their JSON Schema into generated/ (scripts/lib/webhook-vectors.ts
// says what they are). A script of its own, run by `npm run build` after scripts/build.ts: the
// vectors are signed by src/webhooks/ and name the event types of the generated code, which the
// build of the documents makes first. `node scripts/build-vectors.ts [--out DIR]`: the freshness
// test writes them into a temporary DIR instead, and compares them with the committed ones.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { generatedDir, root } from "./lib/paths.ts";
import { VECTORS_FILE, VECTORS_SCHEMA_FILE, webhookVectors } from "./lib/webhook-vectors.ts";
import { webhookVectorsSchema } from "./lib/webhook-vectors-schema.ts";

const { values } = parseArgs({ options: { out: { type: "string", default: generatedDir } } });
const target = path.resolve(values.out!);
mkdirSync(target, { recursive: true });

const files = {
  [VECTORS_FILE]: await webhookVectors(),
  [VECTORS_SCHEMA_FILE]: webhookVectorsSchema,
};
for (const [name, json] of Object.entries(files)) {
  const file = path.join(target, name);
  const text = `${JSON.stringify(json, null, 2)}\n`;
  // Written only when changed, as the rest of generated/ is.
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
}
console.log(`built ${path.relative(root, target) || "."}/${VECTORS_FILE}`);
