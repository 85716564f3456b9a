// POST /api/v1/send/counterparties/: the record as sent, with a new id and created_at; a
// second PAYIN counterparty with the same email and phone number gets 409 with the first's id.
import type { components } from "../../../../generated/openapi.ts";
import { accountNow } from "../../flow/clock.ts";
import { isoTime } from "../../../lib/time.ts";
import { newId } from "../../../lib/ids.ts";
import type { Operation } from "../operation.ts";
import { problem } from "../../../lib/problem.ts";
import { refusal } from "../answer.ts";

type CounterpartyCreate = components["schemas"]["CounterpartyCreate"];

export const createCounterparty: Operation = {
  async handle({ account, body }, { store, clock }) {
    const now = accountNow(clock, account);
    const created = { id: newId("cp"), ...(body as CounterpartyCreate), created_at: isoTime(now) };
    const result = await store.counterparties.create(account.id, created, now);
    if ("created" in result) return { status: 201, body: result.created };
    return refusal(
      problem(409, "counterparty_exists", "A PAYIN counterparty with this email and phone_number already exists.", {
        existing_id: result.existingId,
      }),
    );
  },
};
