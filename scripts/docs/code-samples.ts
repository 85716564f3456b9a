// Code samples for the API reference (`x-codeSamples`, which Scalar shows beside each operation): for every operation, a curl
// call and a TypeScript call with `createPayinClient`, both made from the operation's first
// request example and its parameters' examples, so that a reader can copy a working call.
// Both read the base URL and the token from PAYIN_BASE_URL and PAYIN_TOKEN (the mock: any token).
type Json = Record<string, any>;

export interface CodeSample {
  lang: "Shell" | "TypeScript";
  label: string;
  source: string;
}

export interface OperationSamples {
  method: string;
  path: string;
  samples: CodeSample[];
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/** The value a parameter's documentation shows: its example, else its schema's. */
function exampleOf(param: Json): unknown {
  const schema = param.schema ?? {};
  const fromExamples = Object.values<Json>(param.examples ?? {})[0]?.value;
  return param.example ?? fromExamples ?? schema.examples?.[0] ?? schema.const ?? schema.enum?.[0] ?? schema.default;
}

/** The first named example of the operation's JSON request body, if it has a body. */
function bodyOf(operation: Json): unknown {
  const media = operation.requestBody?.content?.["application/json"];
  if (!media) return undefined;
  return Object.values<Json>(media.examples ?? {})[0]?.value ?? media.example;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const indent = (text: string, by: string) => text.replaceAll("\n", `\n${by}`);

function curl(method: string, path: string, params: Json[], body: unknown): string {
  const url = params
    .filter((p) => p.in === "path")
    .reduce((u, p) => u.replace(`{${p.name}}`, encodeURIComponent(String(exampleOf(p)))), path);
  const query = new URLSearchParams(params.filter((p) => p.in === "query").map((p) => [p.name, String(exampleOf(p))])).toString();
  const lines = [
    `curl -X ${method.toUpperCase()} "$PAYIN_BASE_URL${url}${query ? `?${query}` : ""}"`,
    `-H "Authorization: Bearer $PAYIN_TOKEN"`,
  ];
  for (const p of params.filter((p) => p.in === "header")) lines.push(`-H ${shellQuote(`${p.name}: ${exampleOf(p)}`)}`);
  if (body !== undefined)
    lines.push(`-H "Content-Type: application/json"`, `-d ${indent(shellQuote(JSON.stringify(body, null, 2)), "  ")}`);
  return lines.join(" \\\n  ");
}

function typescript(method: string, path: string, params: Json[], body: unknown): string {
  const groups: Record<string, Json> = {};
  for (const p of params) (groups[p.in === "header" ? "header" : p.in] ??= {})[p.name] = exampleOf(p);
  const options: Json = {};
  if (Object.keys(groups).length) options.params = groups;
  if (body !== undefined) options.body = body;
  const args = Object.keys(options).length ? `, ${JSON.stringify(options, null, 2)}` : "";
  return [
    'import { createPayinClient } from "payin-acceptance-contract";',
    "",
    "const payin = createPayinClient({ baseUrl: process.env.PAYIN_BASE_URL!, token: process.env.PAYIN_TOKEN! });",
    `const { data, error } = await payin.${method.toUpperCase()}(${JSON.stringify(path)}${args});`,
    "if (error) throw new Error(`${error.code}: ${error.detail}`); // a typed Problem",
    "console.log(data);",
  ].join("\n");
}

/** The samples of every operation of a dereferenced OpenAPI document (webhooks are not called). */
export function codeSamples(dereferenced: Json): OperationSamples[] {
  return Object.entries<Json>(dereferenced.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const operation = item[method];
      // Path-item parameters apply too, unless the operation overrides one.
      const own = new Set((operation.parameters ?? []).map((p: Json) => `${p.in} ${p.name}`));
      const params: Json[] = [
        ...(item.parameters ?? []).filter((p: Json) => !own.has(`${p.in} ${p.name}`)),
        ...(operation.parameters ?? []),
      ];
      const body = bodyOf(operation);
      return {
        method,
        path,
        samples: [
          { lang: "Shell", label: "curl", source: curl(method, path, params, body) },
          { lang: "TypeScript", label: "TypeScript", source: typescript(method, path, params, body) },
        ],
      };
    }),
  );
}

/** Adds the samples to the operations of `doc` (the copy the reference renders), in place. */
export function addCodeSamples(doc: Json, samples: OperationSamples[]): void {
  for (const { method, path, samples: list } of samples) doc.paths[path][method]["x-codeSamples"] = list;
}
