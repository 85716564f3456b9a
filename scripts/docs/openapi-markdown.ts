// An API reference as Markdown, for llms.txt: each operation with its parameters, its body as a
// table of fields and its answers, from the dereferenced document. Written here rather than with
// a converter because a converter repeats every schema at each answer (the problem document nine
// times an operation): this page says each once and stays a tenth of the size.
import type { Json } from "../../src/lib/json.ts";
import { operationsOf } from "../lib/openapi.ts";
import { fieldsTable } from "./schema-table.ts";

const line = (text: string | undefined) => (text ?? "").replace(/\s*\n\s*/g, " ").trim();

function operationMarkdown(method: string, path: string, operation: Json): string {
  const parameters = (operation.parameters ?? []) as Json[];
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  const answers = Object.entries<Json>(operation.responses ?? {}).map(([status, answer]) => {
    const schema = Object.values<Json>(answer.content ?? {})[0]?.schema;
    return `- \`${status}\`${schema?.title ? ` (${schema.title})` : ""}: ${line(answer.description)}`;
  });
  return [
    `## ${operation.summary ?? operation.operationId}`,
    `\`${method.toUpperCase()} ${path}\` (operationId \`${operation.operationId}\`)`,
    operation.description?.trim() ?? "",
    ...(parameters.length
      ? [
          "### Parameters",
          ["| Name | In | Required | Description |", "|---|---|---|---|"]
            .concat(parameters.map((p) => `| \`${p.name}\` | ${p.in} | ${p.required ? "yes" : "no"} | ${line(p.description)} |`))
            .join("\n"),
        ]
      : []),
    ...(body ? [`### Body${body.title ? `: ${body.title}` : ""}`, fieldsTable(body)] : []),
    "### Answers",
    answers.join("\n"),
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The Markdown of a dereferenced OpenAPI document: its description, its servers, its operations. */
export function openapiMarkdown(document: Json): string {
  const servers = (document.servers ?? []).map((server: Json) => `- \`${server.url}\`: ${line(server.description)}`);
  const schemas = Object.values<Json>(document.components?.schemas ?? {}).filter((schema) => schema.title === "Problem");
  return [
    `# ${document.info.title} ${document.info.version}`,
    document.info.description?.trim() ?? "",
    "## Servers",
    servers.join("\n"),
    ...operationsOf(document).map(({ method, path, operation }) => operationMarkdown(method, path, operation)),
    ...schemas.map((schema) => ["## The problem document of every error", line(schema.description), fieldsTable(schema)].join("\n\n")),
    "",
  ].join("\n\n");
}
