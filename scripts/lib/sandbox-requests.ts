// The sandbox's knowledge of requests, generated from the two bundled documents (the
// contract and the sandbox's control API): every operation's method and path, one
// standalone validator for its body and one for its parameters, and the create-counterparty
// schema that get counterparty schema serves, and the title of each problem code as the
// documents' examples give it. A changed schema changes the sandbox at the
// next build, with no hand edit.
import { resolveRef, type Json } from "../../src/lib/json.ts";
import { operationsOf } from "../../src/lib/openapi.ts";
import { PROBLEM_CONTENT_TYPE } from "../../src/lib/problem.ts";
import { schemaDefs, standaloneValidatorsModule } from "./standalone-validators.ts";

export interface RequestEntry {
  /** Which bundle, and the Ajv root its schemas live in. */
  document: "contract" | "sandbox";
  operationId: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: "query" | "path" | "header"; required: boolean; schema: Json }>;
  body?: Json;
}

export function requestEntries(document: RequestEntry["document"], bundle: Json): RequestEntry[] {
  return operationsOf(bundle).map(({ path, method, operation: op }) => {
    const parameters = [...(bundle.paths[path].parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => {
      const resolved = resolveRef<Json>(bundle, p);
      return { name: resolved.name, in: resolved.in, required: !!resolved.required, schema: resolved.schema };
    });
    const body = op.requestBody?.content?.["application/json"]?.schema;
    return { document, operationId: op.operationId, method: method.toUpperCase(), path, parameters, ...(body ? { body } : {}) };
  });
}

const bodyDef = (e: RequestEntry) => `${e.operationId}_body`;
const parametersDef = (e: RequestEntry) => `${e.operationId}_parameters`;
const validatorName = (def: string) => `validate_${def}`;

/** The parameters of an operation as one object keyed by parameter name. */
const parametersSchema = (e: RequestEntry): Json => ({
  type: "object",
  properties: Object.fromEntries(e.parameters.map((p) => [p.name, p.schema])),
  required: e.parameters.filter((p) => p.required).map((p) => p.name),
});

/** Each problem code of the documents' examples, with its title: `{ not_found: "Not found" }`. */
export function problemTitles(...bundles: Json[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const bundle of bundles) {
    const examples = [
      ...Object.values<Json>(bundle.components?.examples ?? {}),
      ...Object.values<Json>(bundle.components?.responses ?? {}).flatMap((r) => Object.values<Json>(r.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {})),
      ...operationsOf(bundle).flatMap(({ operation }) =>
        Object.values<Json>(operation.responses ?? {}).flatMap((r) => Object.values<Json>(r.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {})),
      ),
    ];
    for (const example of examples) {
      const value = resolveRef<Json>(bundle, example).value;
      if (typeof value?.code === "string" && typeof value.title === "string") titles[value.code] = value.title;
    }
  }
  return Object.fromEntries(Object.entries(titles).sort(([a], [b]) => a.localeCompare(b)));
}

const rewriteRefs = (schema: Json): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'));

export async function sandboxRequestsModule(bundles: { contract: string; sandbox: string }, counterpartyCreate: Json): Promise<string> {
  const entries = [
    ...requestEntries("contract", JSON.parse(bundles.contract)),
    ...requestEntries("sandbox", JSON.parse(bundles.sandbox)),
  ];
  const roots: Record<string, Json> = {
    contract: { $defs: schemaDefs(bundles.contract) },
    sandbox: { $defs: schemaDefs(bundles.sandbox) },
  };
  const exports: Record<string, string> = {};
  for (const e of entries) {
    const defs = roots[e.document]!.$defs;
    defs[parametersDef(e)] = rewriteRefs(parametersSchema(e));
    exports[validatorName(parametersDef(e))] = `${e.document}#/$defs/${parametersDef(e)}`;
    if (e.body) {
      defs[bodyDef(e)] = rewriteRefs(e.body);
      exports[validatorName(bodyDef(e))] = `${e.document}#/$defs/${bodyDef(e)}`;
    }
  }
  const table = entries.map((e) =>
    [
      "  {",
      `    document: ${JSON.stringify(e.document)},`,
      `    operationId: ${JSON.stringify(e.operationId)},`,
      `    method: ${JSON.stringify(e.method)},`,
      `    path: ${JSON.stringify(e.path)},`,
      `    parameters: ${JSON.stringify(e.parameters.map((p) => ({ name: p.name, in: p.in })))},`,
      `    validateParameters: ${validatorName(parametersDef(e))},`,
      `    validateBody: ${e.body ? validatorName(bodyDef(e)) : "null"},`,
      "  },",
    ].join("\n"),
  );
  const appendix = [
    "",
    "export const operations = [",
    ...table,
    "];",
    "",
    `export const counterpartyCreateSchema = ${JSON.stringify(counterpartyCreate, null, 2)};`,
    "",
    `export const problemTitles = ${JSON.stringify(problemTitles(JSON.parse(bundles.contract), JSON.parse(bundles.sandbox)), null, 2)};`,
    "",
  ].join("\n");
  return standaloneValidatorsModule({
    roots,
    exports,
    header: "// Generated by scripts/build.ts from the contract and sandbox bundles: the sandbox's routes and request validators. Do not edit.",
    appendix,
    entryName: "payin-sandbox-requests",
  });
}

export function sandboxRequestsDeclarations(bundles: { contract: string; sandbox: string }): string {
  const ids = [...requestEntries("contract", JSON.parse(bundles.contract)), ...requestEntries("sandbox", JSON.parse(bundles.sandbox))].map(
    (e) => JSON.stringify(e.operationId),
  );
  return [
    "// Generated by scripts/build.ts. Do not edit.",
    'import type { ValidationError } from "./event-validators.js";',
    "",
    "/** Returns whether `data` is valid; after a `false`, `errors` says why. */",
    "export interface RequestValidator {",
    "  (data: unknown): boolean;",
    "  errors?: ValidationError[] | null;",
    "}",
    "",
    "/** Every operation of the contract and of the sandbox's control API. */",
    `export type OperationId = ${ids.join(" | ")};`,
    "",
    "export interface OperationRequest {",
    '  /** `contract`: the service\'s OpenAPI document; `sandbox`: the control API\'s. */',
    '  document: "contract" | "sandbox";',
    "  operationId: OperationId;",
    "  method: string;",
    "  /** The path template, as the document spells it. */",
    "  path: string;",
    '  parameters: ReadonlyArray<{ name: string; in: "query" | "path" | "header" }>;',
    "  /** Checks the parameters, as one object keyed by parameter name. */",
    "  validateParameters: RequestValidator;",
    "  /** Checks the JSON body; null when the operation takes none. */",
    "  validateBody: RequestValidator | null;",
    "}",
    "",
    "export declare const operations: readonly OperationRequest[];",
    "/** The contract's create counterparty body schema, every $ref resolved. */",
    "export declare const counterpartyCreateSchema: Record<string, unknown>;",
    "/** The title of each problem code, as the documents' examples give it. */",
    "export declare const problemTitles: Readonly<Record<string, string>>;",
    "",
  ].join("\n");
}
