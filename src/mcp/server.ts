// The MCP server of payin-mcp: the eight tools (tools.ts) and the documents and guides as
// resources, on the official SDK's low-level server, which takes each tool's input schema as JSON
// Schema, the contract's own. The SDK is an optional peer of the package, as pg is: loaded here,
// and said so in one line when it is missing.
import { readResource, RESOURCES } from "./contract.ts";
import { TOOLS, type Target } from "./tools.ts";

/** The SDK is not installed beside the package. */
export class McpSdkMissing extends Error {
  override readonly name = "McpSdkMissing";
}

const SDK = "@modelcontextprotocol/sdk";

/** An MCP server of the tools, acting on `target`; connect it to a transport (stdio for the bin). */
export async function createPayinMcpServer(target: Target) {
  const [{ Server }, types] = await Promise.all([import(`${SDK}/server/index.js`), import(`${SDK}/types.js`)]).catch(() => {
    throw new McpSdkMissing(`payin-mcp needs ${SDK} beside the package: npm install ${SDK}`);
  });
  const { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } = types;
  const server = new Server(
    { name: "payin-acceptance-contract", version: "1" },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "Tools for integrating the Payin Acceptance Service: search its docs and read its contract before writing code; " +
        "on a sandbox, create a checkout, pay it, read the transaction and the webhook deliveries, and verify a delivery.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request: { params: { name: string; arguments?: Record<string, unknown> } }) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return { content: [{ type: "text", text: `No tool is named ${request.params.name}.` }], isError: true };
    try {
      return await tool.run(request.params.arguments ?? {}, target);
    } catch (error) {
      // A service that cannot be reached, or a bug: the agent reads what went wrong, the session goes on.
      const cause = (error as Error & { cause?: Error }).cause;
      return { content: [{ type: "text", text: `${tool.name} failed: ${cause?.message ?? (error as Error).message}` }], isError: true };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ uri, name, mimeType }) => ({ uri, name, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request: { params: { uri: string } }) => {
    const resource = RESOURCES.find((r) => r.uri === request.params.uri);
    if (!resource) throw new Error(`No resource ${request.params.uri}`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: readResource(resource.file) }] };
  });
  return server;
}
