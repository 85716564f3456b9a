// Judges an HTTP response by the bundled OpenAPI document: is the status documented for the
// operation, is the content type the documented one, are the documented headers there and
// valid, does the body match the schema. Each failure names the operation, status and field.
import { createAjv } from "../../support/ajv.ts";
import type { Json } from "../../../src/lib/json.ts";
import { openapi, sandboxApi } from "../../support/documents.ts";

const ajv = createAjv();
const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
const validatorOf = (schema: object) => {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
};

/** The document that describes a path: the sandbox's control API under its prefix, the contract elsewhere. */
export const documentOf = (pathname: string): Json => (pathname.startsWith("/_sandbox/") ? sandboxApi : openapi);

/** The path template of the document that a concrete path matches. */
export function templateOf(pathname: string, doc: Json = documentOf(pathname)): string | undefined {
  return Object.keys(doc.paths).find((template) => {
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
    return new RegExp(`^${pattern}$`).test(pathname);
  });
}

export interface CheckedResponse {
  status: number;
  contentType: string | null;
  body: unknown;
  headers: Headers;
  /** Everything about the response that breaks the contract; empty when it keeps it. */
  breaches: string[];
}

export async function checkResponse(method: string, url: string, response: Response): Promise<CheckedResponse> {
  const { pathname } = new URL(url);
  const template = templateOf(pathname);
  const where = `${method.toUpperCase()} ${template ?? pathname} → ${response.status}`;
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* judged below */
  }
  const result: CheckedResponse = {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body,
    headers: response.headers,
    breaches: [],
  };
  const breach = (message: string) => result.breaches.push(`${where}: ${message}`);

  const operation = template && documentOf(pathname).paths[template][method.toLowerCase()];
  if (!operation) {
    breach("the operation is not in the contract");
    return result;
  }
  const responses = operation.responses;
  const documented = responses[String(response.status)] ?? responses[`${String(response.status)[0]}XX`] ?? responses.default;
  if (!documented) {
    breach(`status ${response.status} is not documented (documented: ${Object.keys(responses).join(", ")})`);
    return result;
  }

  for (const [name, header] of Object.entries<any>(documented.headers ?? {})) {
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) breach(`header ${name} is missing`);
      continue;
    }
    const schema = header.schema ?? {};
    const typed = schema.type === "integer" || schema.type === "number" ? Number(value) : value;
    const validate = validatorOf(schema);
    if (!validate(typed)) breach(`header ${name} ${(validate.errors ?? []).map((e) => e.message).join(", ")}`);
  }

  const media = documented.content;
  if (!media) {
    if (text) breach("a body is sent where the contract documents none");
    return result;
  }
  const type = result.contentType?.split(";")[0]!.trim().toLowerCase();
  const mediaType = type && Object.keys(media).find((m) => m.toLowerCase() === type);
  if (!mediaType) {
    breach(`content type ${result.contentType ?? "(none)"} is not documented (documented: ${Object.keys(media).join(", ")})`);
    return result;
  }
  if (typeof body === "string" || body === undefined) {
    breach("the body is not JSON");
    return result;
  }
  const validate = validatorOf(media[mediaType].schema);
  if (!validate(body)) for (const e of validate.errors ?? []) breach(`body${e.instancePath.replaceAll("/", ".")} ${e.message}`);
  return result;
}
