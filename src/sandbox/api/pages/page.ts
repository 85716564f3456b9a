// What a page of the sandbox is, as the service entry runs it.
import type { OperationId } from "../../../../generated/sandbox-requests.js";
import type { Account } from "../../store/accounts.ts";
import type { Answer } from "../answer.ts";
import type { Sandbox } from "../operation.ts";

/** What a page is called with: the caller's account (none on a customer's page), its parameters and its body, both valid. */
export interface PageCall {
  account?: Account;
  parameters: Record<string, string>;
  body: unknown;
}

export interface Page {
  /** `customer`: no token, counted by the client's address; `account`: a bearer token, as the API's. */
  caller: "customer" | "account";
  /** The operation of the documents whose parameters and body validators this page's input meets. */
  validatedAs?: OperationId;
  handle(call: PageCall, sandbox: Sandbox): Promise<Answer>;
}
