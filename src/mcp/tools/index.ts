// payin-mcp's tools, in the order an agent meets them: read the docs and the contract, run a
// checkout on a sandbox and watch its events delivered, then prove the webhook endpoint.
import type { Tool } from "../tool.ts";
import { getSchema, searchDocs, verifyWebhookTool } from "./docs.ts";
import { checkWebhookEndpoint } from "./endpoint.ts";
import { advanceClock, createCheckout, getTransaction, listDeliveries, registerWebhook, resendEvent, simulatePayment } from "./sandbox.ts";

export const TOOLS: readonly Tool[] = [
  searchDocs,
  getSchema,
  createCheckout,
  simulatePayment,
  getTransaction,
  registerWebhook,
  advanceClock,
  listDeliveries,
  resendEvent,
  verifyWebhookTool,
  checkWebhookEndpoint,
];
