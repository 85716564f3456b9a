#!/usr/bin/env node
// `payin-mcp [--base-url URL --token TOKEN]`: the contract, the docs and a sandbox as tools for a
// coding agent, over stdio (the MCP client starts it). Without --base-url (or PAYIN_BASE_URL), the
// tools that need no service work, and the others say what they need. Exit 2 for bad flags or a
// missing optional peer (the MCP SDK), named with the command that installs it.
import { parseFlags, refuse, type Command } from "../lib/cli.ts";
import { createPayinMcpServer, McpSdkMissing } from "./server.ts";

const command = {
  name: "payin-mcp",
  synopsis: "[--base-url URL] [--token TOKEN]",
  flags: {
    "base-url": { type: "string", value: "URL", shownDefault: "$PAYIN_BASE_URL", description: "the service or sandbox the tools act on" },
    token: { type: "string", value: "TOKEN", shownDefault: "$PAYIN_TOKEN", description: "its bearer token (on a sandbox, the account)" },
  },
} as const satisfies Command<any>;

const { values } = parseFlags(command);
const baseUrl = values["base-url"] ?? process.env.PAYIN_BASE_URL;
const token = values.token ?? process.env.PAYIN_TOKEN;
if (baseUrl !== undefined && (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)))
  refuse(command, `--base-url must be an http:// or https:// URL, not ${JSON.stringify(baseUrl)}`);
if (baseUrl !== undefined && !token) refuse(command, "--base-url needs --token (or PAYIN_TOKEN): the account the tools act as");

try {
  const server = await createPayinMcpServer({ baseUrl: baseUrl?.replace(/\/+$/, ""), token });
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  await server.connect(new StdioServerTransport());
} catch (error) {
  if (!(error instanceof McpSdkMissing)) throw error;
  console.error(error.message);
  process.exit(2);
}
