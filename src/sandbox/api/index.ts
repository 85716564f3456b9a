// Every operation of the two documents and its handler; the type makes a missing one a compile error.
import { advanceClock } from "./control/advance-clock.ts";
import { answerDelivery } from "./control/answer-delivery.ts";
import { armFault } from "./control/arm-fault.ts";
import { clearFaults } from "./control/clear-faults.ts";
import { connectListener } from "./control/connect-listener.ts";
import { deleteCounterparty } from "./control/delete-counterparty.ts";
import { disarmFault } from "./control/disarm-fault.ts";
import { getSandboxPaymentSession } from "./control/get-payment-session.ts";
import { listDeliveries } from "./control/list-deliveries.ts";
import { listFaults } from "./control/list-faults.ts";
import { listRequests } from "./control/list-requests.ts";
import { redeliverEvent } from "./control/redeliver-event.ts";
import { resetAccount } from "./control/reset-account.ts";
import { simulatePayment } from "./control/simulate-payment.ts";
import type { Operations } from "./operation.ts";
import { createCounterparty } from "./operations/create-counterparty.ts";
import { createPaymentSession } from "./operations/create-payment-session.ts";
import { getCounterpartySchema } from "./operations/get-counterparty-schema.ts";
import { getTransaction } from "./operations/get-transaction.ts";
import { getWebhook } from "./operations/get-webhook.ts";
import { registerWebhook } from "./operations/register-webhook.ts";

export const handlers: Operations = {
  createCounterparty,
  getCounterpartySchema,
  createPaymentSession,
  getTransaction,
  registerWebhook,
  getWebhook,
  advanceClock,
  getSandboxPaymentSession,
  simulatePayment,
  listDeliveries,
  redeliverEvent,
  deleteCounterparty,
  resetAccount,
  armFault,
  listFaults,
  clearFaults,
  disarmFault,
  listRequests,
  connectListener,
  answerDelivery,
};
