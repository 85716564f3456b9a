// POST /_sandbox/v1/deliveries/{event_id}/redeliver: sends an event again now, delivered or not,
// and answers with that attempt.
import type { WaitingOperation } from "../operation.ts";
import { problem } from "../../../lib/problem.ts";
import { refusal, webhookNotRegistered } from "../problems.ts";
import { delivery } from "./list-deliveries.ts";

export const redeliverEvent: WaitingOperation = {
  waits: true,
  async handle({ account, parameters }, { store, dispatcher }) {
    const id = parameters.event_id!;
    const event = await store.outbox.get(account.id, id);
    if (!event) return refusal(problem(404, "not_found", `No event with id ${id} exists for this account.`));
    if (!(await store.webhooks.get(account.id))) return refusal(webhookNotRegistered());
    await dispatcher.redeliver(event);
    // Its newest attempt is the one made (none only when the sandbox closed meanwhile, and the request goes unanswered).
    const attempts = (await store.outbox.attempts(account.id, event.sessionId)).filter((a) => a.event_id === id);
    return { status: 200, body: delivery(attempts.at(-1)!) };
  },
};
