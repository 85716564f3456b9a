export { createPayinClient } from "./client.ts";
export { createSandboxClient, type SandboxClient } from "./sandbox-client.ts";
export type { PayinClient, PayinClientOptions, TokenSource } from "./client.ts";
export type { paths, components, operations } from "../generated/openapi.ts";

import type { components } from "../generated/openapi.ts";

type Schemas = components["schemas"];

/** Body of create counterparty. */
export type CounterpartyCreate = Schemas["CounterpartyCreate"];
/** A PAYIN counterparty as the service returns it. */
export type Counterparty = Schemas["Counterparty"];
/** Fields required to create a counterparty, from get counterparty schema. */
export type CounterpartySchema = Schemas["CounterpartySchema"];
/** Body of create payment session. */
export type PaymentSessionCreate = Schemas["PaymentSessionCreate"];
/** A payment session with its payment link. */
export type PaymentSession = Schemas["PaymentSession"];
/** A transaction, fetched whenever a transaction event arrives. */
export type Transaction = Schemas["Transaction"];
/** Body of register webhook URL. */
export type WebhookRegistrationRequest = Schemas["WebhookRegistrationRequest"];
/** The registered webhook URL with its signing secret. */
export type WebhookRegistration = Schemas["WebhookRegistration"];
/** The registered webhook URL, without its secret. */
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type { Problem } from "./lib/problem.ts";
export type SessionStatus = Schemas["SessionStatus"];
export type TransactionStatus = Schemas["TransactionStatus"];
