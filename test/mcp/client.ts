// payin-mcp as an agent's MCP client runs it: the official SDK's client, over stdio, starting
// the bin from source. Every call's answer comes back with its structured content, which the
// client has checked against the tool's output schema, and its text.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";
import { root } from "../../scripts/lib/paths.ts";

const CLI = path.join(root, "src", "mcp", "cli.ts");

export interface Called {
  text: string;
  structured: any;
  error: boolean;
  /** The whole answer, as sent. */
  bytes: number;
}

export type Agent = Awaited<ReturnType<typeof startAgent>>;

/** The client, connected to payin-mcp started as `command args` in `cwd`, having listed the tools (so that it checks their answers). */
export async function startAgent(command: string, args: string[], cwd?: string) {
  const client = new Client({ name: "payin-test-agent", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "pipe", ...(cwd ? { cwd } : {}) }));
  const listed = await client.listTools();
  const call = async (name: string, input: Record<string, unknown> = {}): Promise<Called> => {
    const result = (await client.callTool({ name, arguments: input })) as {
      content: Array<{ text: string }>;
      structuredContent?: unknown;
      isError?: boolean;
    };
    return {
      text: result.content.map((c) => c.text).join("\n"),
      structured: result.structuredContent,
      error: result.isError ?? false,
      bytes: Buffer.byteLength(JSON.stringify(result)),
    };
  };
  return { client, listed, call, close: () => client.close() };
}

/** payin-mcp from source, with these flags. */
export const sourceAgent = (flags: string[] = []) => startAgent(process.execPath, [CLI, ...flags]);
