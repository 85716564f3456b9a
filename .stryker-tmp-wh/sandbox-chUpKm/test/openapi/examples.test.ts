// @ts-nocheck
import { describe, expect, it } from "vitest";
import { createAjv } from "../support/ajv.ts";
import { openapi, operations } from "../support/documents.ts";

const ajv = createAjv();

interface Case {
  where: string;
  schema: object;
  value: unknown;
}

/** Every named example of every request body and response, with the schema it illustrates. */
function mediaExamples(): Case[] {
  return operations().flatMap(({ path, method, operation }) => {
    const media = [
      ...Object.entries(operation.requestBody?.content ?? {}).map(([type, m]) => [`request ${type}`, m] as const),
      ...Object.entries(operation.responses).flatMap(([status, r]: [string, any]) =>
        Object.entries(r.content ?? {}).map(([type, m]) => [`${status} ${type}`, m] as const),
      ),
    ];
    return media.flatMap(([label, m]: readonly [string, any]) =>
      Object.entries(m.examples ?? {}).map(([name, ex]: [string, any]) => ({
        where: `${method.toUpperCase()} ${path} ${label} example "${name}"`,
        schema: m.schema,
        value: ex.value,
      })),
    );
  });
}

/** Every `examples` keyword inside the component schemas, checked against its own schema. */
function schemaExamples(): Case[] {
  const cases: Case[] = [];
  const visit = (schema: any, where: string) => {
    if (!schema || typeof schema !== "object") return;
    for (const value of schema.examples ?? []) cases.push({ where, schema, value });
    for (const [name, prop] of Object.entries(schema.properties ?? {})) visit(prop, `${where}.${name}`);
    if (schema.items) visit(schema.items, `${where}[]`);
    for (const key of ["allOf", "oneOf", "anyOf"]) (schema[key] ?? []).forEach((s: any, i: number) => visit(s, `${where}.${key}[${i}]`));
  };
  for (const [name, schema] of Object.entries(openapi.components.schemas)) visit(schema, name);
  return cases;
}

describe("every example is valid against its schema", () => {
  const media = mediaExamples();
  it("covers a request example for every body and an example for every response with content", () => {
    for (const { path, method, operation } of operations()) {
      for (const [type, m] of Object.entries<any>(operation.requestBody?.content ?? {}))
        expect(Object.keys(m.examples ?? {}), `${method} ${path} request ${type}`).not.toHaveLength(0);
      for (const [status, r] of Object.entries<any>(operation.responses))
        for (const [type, m] of Object.entries<any>(r.content ?? {}))
          expect(Object.keys(m.examples ?? {}), `${method} ${path} ${status} ${type}`).not.toHaveLength(0);
    }
    expect(media.length).toBeGreaterThan(40);
  });

  it.each(media.map((c) => [c.where, c] as const))("%s", (_, { schema, value }) => {
    const validate = ajv.compile(schema);
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
  });

  it.each(schemaExamples().map((c) => [c.where, c] as const))("schema example of %s", (_, { schema, value }) => {
    const validate = ajv.compile(schema);
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
  });

  it("every problem example's status is the status it is documented under", () => {
    for (const { path, method, operation } of operations())
      for (const [status, r] of Object.entries<any>(operation.responses))
        for (const [name, ex] of Object.entries<any>(r.content?.["application/problem+json"]?.examples ?? {}))
          expect(ex.value.status, `${method} ${path} ${status} ${name}`).toBe(Number(status));
  });
});
