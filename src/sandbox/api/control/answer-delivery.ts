// POST /_sandbox/v1/listen/deliveries/{delivery_id}: what the listener's local endpoint answered
// to a delivery, taken by whichever process it reaches, for the attempt that waits for it. It
// writes nothing, so it runs outside any transaction: an answer refused (a delivery that is not
// this account's, given up on, or answered already) costs the database nothing, however many come.
import { problem } from "../../../lib/problem.ts";
import { refusal } from "../answer.ts";
import type { WaitingOperation } from "../operation.ts";

export const answerDelivery: WaitingOperation = {
  waits: true,
  check(body: { status?: number; error?: string }) {
    if ((body.status === undefined) === (body.error === undefined))
      return [{ field: "status", message: "give either the status the endpoint answered or the error it gave, not both nor neither" }];
    return [];
  },
  async handle({ account, parameters, body }, { listeners }) {
    const id = parameters.delivery_id!;
    const taken = await listeners.answerFromListener(
      account.id,
      id,
      body.status === undefined ? { error: body.error } : { status: body.status },
    );
    if (taken === "unknown")
      return refusal(
        problem(
          404,
          "not_found",
          `No delivery ${id} of this account's listener waits for an answer: it was given up on, or is none of this account's.`,
        ),
      );
    if (taken === "answered") return refusal(problem(409, "delivery_answered", `The delivery ${id} was answered already.`));
    return { status: 204 };
  },
};
