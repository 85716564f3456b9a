// GET /api/v1/send/counterparties/schema/: the fields create counterparty requires, computed
// from the contract's own schema of its body, so the answer changes when the contract does.
import { counterpartyCreateSchema } from "../../../../generated/sandbox-requests.js";
import type { Operation } from "../operation.ts";

type Schema = Record<string, any>;

/** Annotations for people, left out of the schema a form validates with. */
const ANNOTATIONS = new Set(["title", "description", "examples", "x-decision"]);

function stripAnnotations(schema: Schema): Schema {
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !ANNOTATIONS.has(key))
      .map(([key, value]) => [
        key,
        key === "properties"
          ? Object.fromEntries(Object.entries<Schema>(value).map(([name, s]) => [name, stripAnnotations(s)]))
          : key === "allOf"
            ? (value as Schema[]).map(stripAnnotations)
            : value,
      ]),
  );
}

/** Required fields as dot paths; a nested object's are required whenever it is sent. */
function requiredPaths(schema: Schema, prefix = ""): string[] {
  const own = ((schema.required ?? []) as string[]).map((name) => prefix + name);
  const nested = Object.entries<Schema>(schema.properties ?? {})
    .filter(([, s]) => s.type === "object")
    .flatMap(([name, s]) => requiredPaths(s, `${prefix}${name}.`));
  return [...own, ...nested];
}

const jsonSchema = { $schema: "https://json-schema.org/draft/2020-12/schema", ...stripAnnotations(counterpartyCreateSchema) };
const requiredFields = requiredPaths(counterpartyCreateSchema);

export const getCounterpartySchema: Operation = {
  async handle({ parameters }) {
    // The parameters' enums already hold the only rail and type the contract knows.
    return {
      status: 200,
      body: { payment_rail: parameters.payment_rail, type: parameters.type, required_fields: requiredFields, json_schema: jsonSchema },
    };
  },
};
