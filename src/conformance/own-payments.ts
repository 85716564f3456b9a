// The payments the receiver checks make for their events to name, and their deletion when the
// checks end. They are made in the account the endpoint fetches from, which is the developer's
// own: the endpoint fetches with its own token, so the checks cannot keep to an account of their
// own. So they make them only where they can take them back, a sandbox (its control API deletes a
// counterparty with all it has: sessions, transactions, events, deliveries), one customer of
// their own with every payment under it, and delete it when they end, however they end: nothing
// of theirs stays listed in the account or is delivered to its URL afterwards, however far its
// clock moves. Where they cannot, they make nothing, and their events name made-up objects.
import { newCounterparty, PATHS, sessionBody } from "./fixtures.ts";
import { processingFailureChecks } from "./checks/processing-failure.ts";
import { madeUpPayments, type Payment, type Payments } from "./deliveries.ts";
import { UnreachableTarget } from "./run-service.ts";
import type { Exchange, Target } from "./target.ts";

/** The account given could not be used to create what the events name. */
export class SetupFailed extends Error {
  override readonly name = "SetupFailed";
}

export interface OwnPayments {
  payments: Payments;
  /** Deletes what the checks made in the account; resolves to what is left there and why, or undefined when nothing is. */
  remove(): Promise<string | undefined>;
}

/** Paid, failed, paid again for the events out of order, and failed once for each check of the endpoint's own failures. */
const OUTCOMES = ["pay", "fail", "pay", ...processingFailureChecks.map(() => "fail" as const)] as const;

/** The account's answer to a request, or the error that says it cannot be reached. */
async function call(target: Target, method: string, path: string, body?: object): Promise<Exchange> {
  try {
    return await target.call(method, path, body === undefined ? {} : { body });
  } catch (error) {
    throw new UnreachableTarget(`${target.baseUrl} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
  }
}

const expectStatus = (target: Target, what: string, exchange: Exchange, status: number) => {
  if (exchange.answer.status !== status)
    throw new SetupFailed(
      `${target.baseUrl} answered ${exchange.answer.status} to ${what}, not ${status}: ${exchange.answer.text.slice(0, 300)}`,
    );
};

/**
 * The payments for the checks' events: in the account of `target` when it is a sandbox, made up otherwise (or without
 * `target`). `say` hears, before anything is made, in one sentence, what the checks will make there and take back.
 */
export async function ownPayments(target: Target | undefined, say: (line: string) => void): Promise<OwnPayments> {
  const nothing = async () => undefined;
  if (target === undefined) return { payments: madeUpPayments(), remove: nothing };
  // The control API's faults, which the checks of the endpoint's own failures need too, say whether it is a sandbox.
  const probe = await call(target, "GET", PATHS.faults);
  if (probe.answer.status === 404) {
    say(
      `${target.baseUrl} has no sandbox control API to delete what the checks would make there: ` +
        "they make nothing in the account, and their events name made-up objects.",
    );
    return { payments: { ...madeUpPayments(), origin: "not-made" }, remove: nothing };
  }
  expectStatus(target, `GET ${PATHS.faults}`, probe, 200);
  say(
    `The checks make a customer and ${OUTCOMES.length} payments of their own in the account at ${target.baseUrl} ` +
      "for their events to name, and delete them, with their events, when they end.",
  );
  const created = await call(target, "POST", PATHS.counterparties, newCounterparty());
  expectStatus(target, "create counterparty", created, 201);
  const counterpartyId: string = created.json.id;
  const remove = () => deleteCounterparty(target, counterpartyId);
  try {
    const made: Payment[] = [];
    for (const outcome of OUTCOMES) {
      const request = sessionBody(counterpartyId);
      const session = await call(target, "POST", PATHS.sessions, request);
      expectStatus(target, "create payment session", session, 201);
      const paid = await call(target, "POST", PATHS.simulate(session.json.id), { outcome });
      expectStatus(target, `simulate ${outcome}`, paid, 200);
      made.push({ counterpartyId, sessionId: session.json.id, request, transactionId: paid.json.transaction.id });
    }
    const [paid, failed, reordered, ...ownFailures] = made as [Payment, Payment, Payment, ...Payment[]];
    return { payments: { paid, failed, reordered, ownFailures, origin: "created" }, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** Deletes the checks' customer with all it has; what is left and why, when that fails. */
async function deleteCounterparty(target: Target, id: string): Promise<string | undefined> {
  const left = (why: string) =>
    `the checks' customer ${id}, its payments and their events, which could not be deleted (${why}): ` +
    `DELETE ${target.baseUrl}${PATHS.counterparty(id)} deletes them`;
  try {
    const { answer } = await target.call("DELETE", PATHS.counterparty(id));
    // Gone already is as good as deleted.
    return answer.status === 204 || answer.status === 404 ? undefined : left(`${answer.status} ${answer.text.slice(0, 200)}`.trim());
  } catch (error) {
    return left(String((error as Error).cause ?? (error as Error).message));
  }
}
