// The MCP server of payin-mcp: the tools (tools/) and the documents and guides as resources, on
// the official SDK's low-level server, which takes each tool's schemas as JSON Schema, the
// contract's own. Each call's input is checked against its tool's schema first (input.ts). The
// SDK is an optional peer of the package, as pg is: loaded here, and said so in one line when it
// is missing. The docs' search needs nothing beside the package (src/lib/docs-ranking.ts).
import { readPackageFile, RESOURCES } from "./contract.ts";
import { inputChecker } from "./input.ts";
import { echoed, type Target } from "./tool.ts";

/** The SDK is not installed beside the package. */
export class McpSdkMissing extends Error {
  override readonly name = "McpSdkMissing";
}

const SDK = "@modelcontextprotocol/sdk";
/** What payin-mcp needs beside the package, and a module of each to find it by. */
const PEERS = [[SDK, `${SDK}/server/index.js`]] as const;

/** The peers that are not installed where this module can import them. */
function missingPeers(): string[] {
  return PEERS.filter(([, module]) => {
    try {
      import.meta.resolve(module);
      return false;
    } catch {
      return true;
    }
  }).map(([name]) => name);
}

/** An MCP server of the tools, acting on `target`; connect it to a transport (stdio for the bin). */
export async function createPayinMcpServer(target: Target) {
  const missing = missingPeers();
  if (missing.length)
    throw new McpSdkMissing(`payin-mcp needs ${missing.join(" and ")} beside the package: npm install --save-dev ${missing.join(" ")}`);
  const [{ Server }, types, { AjvJsonSchemaValidator }, { loadDocsSearch }, { TOOLS }] = await Promise.all([
    import(`${SDK}/server/index.js`),
    import(`${SDK}/types.js`),
    import(`${SDK}/validation/ajv`),
    import("./search.ts"),
    import("./tools/index.ts"),
  ]);
  const { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } = types;
  const validator = new AjvJsonSchemaValidator();
  const refusal = inputChecker(TOOLS, (schema) => validator.getValidator(schema));
  const context = { target, docs: loadDocsSearch() };
  const server = new Server(
    { name: "payin-acceptance-contract", version: "1" },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "Tools for integrating the Payin Acceptance Service: search its docs and read its contract before writing code; " +
        "on a sandbox, register a webhook URL, create a checkout, pay it, advance the clock, read the deliveries, " +
        "and check your webhook endpoint.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map(({ name, description, inputSchema, outputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      outputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request: { params: { name: string; arguments?: Record<string, unknown> } }) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return { content: [{ type: "text", text: `No tool is named ${echoed(String(request.params.name))}.` }], isError: true };
    const input = request.params.arguments ?? {};
    const refused = refusal(tool, input);
    if (refused) return { content: [{ type: "text", text: refused }], isError: true };
    try {
      return await tool.run(input, context);
    } catch (error) {
      // A service that cannot be reached, or a bug: the agent reads what went wrong, the session goes on.
      const cause = (error as Error & { cause?: Error }).cause;
      const why = echoed(String(cause?.message ?? (error as Error).message), 500);
      return { content: [{ type: "text", text: `${tool.name} failed: ${why}` }], isError: true };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ uri, name, mimeType }) => ({ uri, name, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request: { params: { uri: string } }) => {
    const resource = RESOURCES.find((r) => r.uri === request.params.uri);
    if (!resource) throw new Error(`No resource ${echoed(String(request.params.uri))}`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: readPackageFile(resource.file) }] };
  });
  return server;
}
