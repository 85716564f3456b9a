// @ts-nocheck
import { openapi, operations } from "../../support/documents.ts";

/** A concrete request for each operation, from the contract's own first request example. */
export const operationRequests = operations(openapi).map(({ path, method, operation }) => {
  const body = Object.values<any>(operation.requestBody?.content?.["application/json"]?.examples ?? {})[0]?.value;
  const query = (operation.parameters ?? [])
    .filter((p: any) => p.in === "query")
    .map((p: any) => `${p.name}=${encodeURIComponent(p.schema.examples?.[0] ?? p.schema.enum?.[0])}`)
    .join("&");
  const concrete = path.replace(/\{[^}]+\}/g, "txn_contract_0001") + (query ? `?${query}` : "");
  return { label: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path: concrete, body, operation };
});

/** Every documented response body example of a status, to compare the mock's answers with. */
export const documentedExamples = (operation: any, status: string): unknown[] =>
  Object.values<any>(operation.responses[status]?.content ?? {}).flatMap((m) => Object.values<any>(m.examples ?? {}).map((e) => e.value));
