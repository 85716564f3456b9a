// Compiles JSON Schemas into standalone JavaScript validators (Ajv), then bundles Ajv's small
// runtime helpers into the module, so the published package validates with no dependency.
// Used for the event validators and for the sandbox's request validators.
import { _ } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import { rolldown } from "rolldown";
import path from "node:path";
import { formats } from "./formats.ts";
import { root } from "./paths.ts";

type Json = Record<string, any>;

/** A bundle's components, with `#/components/schemas/...` refs rewritten for Ajv's `$defs`. */
export function schemaDefs(openapiBundleJson: string): Json {
  return JSON.parse(openapiBundleJson.replaceAll('"#/components/schemas/', '"#/$defs/')).components.schemas;
}

export interface StandaloneModule {
  /** Schema roots by `$id`: each resolves `#/$defs/...` within itself. */
  roots: Record<string, Json>;
  /** Exported validator name → schema reference (`<$id>#/$defs/<name>`). */
  exports: Record<string, string>;
  /** First line of the module, saying where it comes from. */
  header: string;
  /** JavaScript appended after the validators (may use their names). */
  appendix?: string;
  /** Name of the module's entry, which the bundler writes into it as a comment. */
  entryName: string;
}

export async function standaloneValidatorsModule({ roots, exports, header, appendix = "", entryName }: StandaloneModule): Promise<string> {
  // The formats' code comes from formats.ts (ajv-formats' own, one of them faster), bundled below.
  const formatsModule = path.join(root, "scripts/lib/formats.ts");
  const ajv = new Ajv2020({ code: { source: true, esm: true, optimize: true, formats: _`require(${formatsModule}).formats` }, strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("date-time", formats["date-time"]);
  ajv.addKeyword("x-decision");
  ajv.addKeyword("x-minor-units");
  for (const [$id, schema] of Object.entries(roots)) ajv.addSchema({ ...schema, $id });

  // Ajv's standalone ESM still `require`s its runtime helpers (`require(x).default`,
  // `require(x).fullFormats`); a namespace import has the same members for the bundler.
  let imports = "";
  const source = standaloneCode.default(ajv, exports).replace(/require\("([^"]+)"\)/g, (_, specifier: string) => {
    const name = `__dep${imports.split("\n").length}`;
    imports += `import * as ${name} from ${JSON.stringify(specifier)};\n`;
    return name;
  });

  const entry = `\0${entryName}`;
  const bundle = await rolldown({
    input: entry,
    platform: "neutral",
    cwd: root,
    logLevel: "silent",
    plugins: [{ name: "entry", resolveId: (id) => (id === entry ? id : null), load: (id) => (id === entry ? imports + source + appendix : null) }],
  });
  const { output } = await bundle.generate({ format: "esm", minify: false });
  await bundle.close();
  return `${header}\n${output[0].code}`;
}
