// POST /api/v1/earn/payment-sessions/: the record as sent, `created`, expiring one hour later
// on the account's clock, with a payment link under the sandbox's own origin; session-created
// goes to the outbox in the same transaction. The amount keeps its currency's minor units (D2).
import type { components } from "../../../../generated/openapi.ts";
import { currencyMinorUnits } from "../../../../generated/sandbox-requests.js";
import { amountError } from "../../../lib/amount.ts";
import { accountNow, realTime } from "../../flow/clock.ts";
import { isoTime } from "../../../lib/time.ts";
import { couldBeId, newId } from "../../../lib/ids.ts";
import type { Operation } from "../operation.ts";
import { announce } from "../../flow/announce.ts";
import { paymentLink } from "../../flow/urls.ts";
import { validationProblem } from "../../../lib/problem.ts";
import { refusal } from "../answer.ts";
import { SESSION_LIFETIME_MS } from "../../../lib/contract-facts.ts";
import { loopbackHttpRule, unreachableUrls } from "../../flow/urls.ts";

type PaymentSessionCreate = components["schemas"]["PaymentSessionCreate"];

const unknownCounterparty = { field: "counterparty_id", message: "must be the id of an existing PAYIN counterparty" };

export const createPaymentSession: Operation = {
  async handle({ account, body }, { store, origin, clock }) {
    const now = accountNow(clock, account);
    const id = newId("ps");
    const session = {
      id,
      status: "created" as const,
      payment_link: paymentLink(origin, id),
      ...(body as PaymentSessionCreate),
      created_at: isoTime(now),
      expires_at: isoTime(now + SESSION_LIFETIME_MS),
    };
    return store.transaction(async () => {
      if (!(await store.sessions.create(account.id, id, body, now, realTime(account, now + SESSION_LIFETIME_MS))))
        return refusal(validationProblem([unknownCounterparty]));
      await announce(store, account.id, [{ session: id, status: "created" }], now);
      return { status: 201, body: session };
    });
  },
  ...loopbackHttpRule("redirect_url", "source_url"),
  check: (body) => [
    ...[amountError(body, currencyMinorUnits)].filter((e) => e !== undefined),
    // Text no counterparty's id can be is refused as an unknown one, without asking the database.
    ...(typeof body.counterparty_id === "string" && !couldBeId("cp", body.counterparty_id) ? [unknownCounterparty] : []),
    ...unreachableUrls(body, "redirect_url", "source_url"),
  ],
};
