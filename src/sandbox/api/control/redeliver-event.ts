// POST /_sandbox/v1/deliveries/{event_id}/redeliver: sends an event again now, delivered or not,
// and answers with that attempt.
import type { WaitingOperation } from "../operation.ts";
import { couldBeId } from "../../../lib/ids.ts";
import { problem } from "../../../lib/problem.ts";
import { refusal } from "../answer.ts";
import { nowhereToSend } from "../problems.ts";
import { delivery } from "./list-deliveries.ts";

export const redeliverEvent: WaitingOperation = {
  waits: true,
  async handle({ account, parameters }, { store, dispatcher }) {
    const id = parameters.event_id!;
    const notFound = () => refusal(problem(404, "not_found", `No event with id ${id} exists for this account.`));
    if (!couldBeId("msg", id)) return notFound();
    const event = await store.outbox.get(account.id, id);
    if (!event) return notFound();
    // Somewhere to send it: a registered URL, or a listener connected (decision D23).
    if (!(await store.webhooks.get(account.id))?.url && !(await store.listeners.active(account.id))) return refusal(nowhereToSend());
    const made = await dispatcher.redeliver(event);
    const [attempt] = await store.outbox.newestAttemptsOf(account.id, [id], 1);
    // Gone meanwhile: the account was reset while the redelivery waited (or the sandbox closed, and no one hears).
    return made && attempt ? { status: 200, body: delivery(attempt) } : notFound();
  },
};
