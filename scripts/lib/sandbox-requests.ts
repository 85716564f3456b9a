// The sandbox's knowledge of requests, generated from the two bundled documents (the
// contract and the sandbox's control API): every operation's method and path, one
// standalone validator for its body and one for its parameters, the create-counterparty
// schema that get counterparty schema serves, and the currencies' minor units; and the statuses
// each operation documents (which faults it may be made to answer). A changed
// schema changes the sandbox at the next build, with no hand edit.
import { resolveRef, type Json } from "../../src/lib/json.ts";
import { minorUnitsOf } from "../../src/lib/amount.ts";
import { operationsOf } from "./openapi.ts";
import { schemaDefs, type StandaloneModule } from "./standalone-validators.ts";

export interface RequestEntry {
  /** Which bundle, and the Ajv root its schemas live in. */
  document: "contract" | "sandbox";
  operationId: string;
  method: string;
  path: string;
  /** `integer`: the document types it as an integer, which the request carries as text. */
  parameters: Array<{ name: string; in: "query" | "path" | "header"; required: boolean; schema: Json; integer: boolean }>;
  body?: Json;
  /** The statuses its responses document. */
  statuses: string[];
}

export function requestEntries(document: RequestEntry["document"], bundle: Json): RequestEntry[] {
  return operationsOf(bundle).map(({ path, method, operation: op }) => {
    const parameters = [...(bundle.paths[path].parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => {
      const resolved = resolveRef<Json>(bundle, p);
      const integer = resolveRef<Json>(bundle, resolved.schema).type === "integer";
      return { name: resolved.name, in: resolved.in, required: !!resolved.required, schema: resolved.schema, integer };
    });
    const body = op.requestBody?.content?.["application/json"]?.schema;
    return {
      document,
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      parameters,
      ...(body ? { body } : {}),
      statuses: Object.keys(op.responses ?? {}),
    };
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

/** The parameters' validator: an integer parameter is checked as the number its text spells (see `asNumbers` below). */
const parametersValidator = (e: RequestEntry) => {
  const integers = e.parameters.filter((p) => p.integer).map((p) => p.name);
  const validate = validatorName(parametersDef(e));
  return integers.length === 0 ? validate : `asNumbers(${validate}, ${JSON.stringify(integers)})`;
};

// A request carries its parameters as text: an integer one is checked as the number it spells, so that its bounds are
// checked and named (`must be <= 100`), and text that spells none fails as not an integer.
const AS_NUMBERS = `
function asNumbers(validate, integers) {
  const check = (parameters) => {
    const typed = { ...parameters };
    for (const name of integers) if (/^-?\\d+$/.test(typed[name] ?? "")) typed[name] = Number(typed[name]);
    const valid = validate(typed);
    check.errors = validate.errors;
    return valid;
  };
  return check;
}`;

const rewriteRefs = (schema: Json): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'));

export function sandboxRequestsModule(bundles: { contract: string; sandbox: string }, counterpartyCreate: Json): StandaloneModule {
  const entries = [...requestEntries("contract", JSON.parse(bundles.contract)), ...requestEntries("sandbox", JSON.parse(bundles.sandbox))];
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
      `    validateParameters: ${parametersValidator(e)},`,
      `    validateBody: ${e.body ? validatorName(bodyDef(e)) : "null"},`,
      `    statuses: ${JSON.stringify(e.statuses)},`,
      "  },",
    ].join("\n"),
  );
  const appendix = [
    AS_NUMBERS,
    "",
    "export const operations = [",
    ...table,
    "];",
    "",
    `export const counterpartyCreateSchema = ${JSON.stringify(counterpartyCreate, null, 2)};`,
    "",
    `export const currencyMinorUnits = ${JSON.stringify(minorUnitsOf(JSON.parse(bundles.contract)), null, 2)};`,
    "",
  ].join("\n");
  return {
    fileName: "sandbox-requests.js",
    roots,
    exports,
    header:
      "// Generated by scripts/build.ts from the contract and sandbox bundles: the sandbox's routes and request validators. Do not edit.",
    appendix,
  };
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
    "  /** `contract`: the service's OpenAPI document; `sandbox`: the control API's. */",
    '  document: "contract" | "sandbox";',
    "  operationId: OperationId;",
    "  method: string;",
    "  /** The path template, as the document spells it. */",
    "  path: string;",
    '  parameters: ReadonlyArray<{ name: string; in: "query" | "path" | "header" }>;',
    "  /** Checks the parameters as the request carries them, text keyed by parameter name; an integer one as the number it spells. */",
    "  validateParameters: RequestValidator;",
    "  /** Checks the JSON body; null when the operation takes none. */",
    "  validateBody: RequestValidator | null;",
    "  /** The statuses its responses document: `201`, `422`, … */",
    "  statuses: readonly string[];",
    "}",
    "",
    "export declare const operations: readonly OperationRequest[];",
    "/** The contract's create counterparty body schema, every $ref resolved. */",
    "export declare const counterpartyCreateSchema: Record<string, unknown>;",
    "/** The currencies whose minor units are not two (the contract's `x-minor-units` of `Currency`). */",
    "export declare const currencyMinorUnits: Readonly<Record<string, number>>;",
    "",
  ].join("\n");
}
