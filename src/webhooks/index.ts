export { verifyWebhook, type VerifyWebhookOptions } from "./verify.ts";
export { signWebhook, type SignWebhookInput, type SignedWebhookHeaders } from "./sign.ts";
export { WebhookVerificationError, type WebhookVerificationErrorCode } from "./errors.ts";
export type { WebhookHeaders } from "./headers.ts";
export { EVENT_TYPES } from "../../generated/event-types.ts";
export type {
  PayinEvent,
  PayinEventType,
  PayinEventOf,
  SessionCreatedEvent,
  TransactionCreatedEvent,
  TransactionCompletedEvent,
  TransactionSettledEvent,
  SessionExpiredEvent,
  TransactionFailedEvent,
  SessionCompletedEvent,
} from "../../generated/event-types.ts";
