// POST /_sandbox/v1/listen/deliveries/{delivery_id}: what the listener's local endpoint answered
// to a delivery, taken by whichever process it reaches, for the attempt that waits for it.
import type { Operation } from "../operation.ts";

export const answerDelivery: Operation = {
  check(body: { status?: number; error?: string }) {
    if ((body.status === undefined) === (body.error === undefined))
      return [{ field: "status", message: "give either the status the endpoint answered or the error it gave, not both nor neither" }];
    return [];
  },
  async handle({ account, parameters, body }, { listeners }) {
    await listeners.answer(
      account.id,
      parameters.delivery_id!,
      body.status === undefined ? { error: body.error } : { status: body.status },
    );
    return { status: 204 };
  },
};
