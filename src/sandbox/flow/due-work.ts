// What comes due as time passes on accounts' clocks, done in one place: sessions expire,
// transactions settle, idempotency keys are forgotten. For one account when its clock is
// advanced or a read must show it as it is now, for every account on the runtime's tick. A read
// finds first what has come due: most of the time nothing has, and no transaction (no write, no
// commit to wait for) is made; otherwise only what has come due is done.
import type { Store } from "../store/index.ts";
import type { Payments } from "./payments.ts";

/** Does, in one transaction, what is due by now for the account with id `accountId`, or for every account when it is null. */
export async function runDueWork({ store, payments }: { store: Store; payments: Payments }, accountId: number | null) {
  const now = store.clock.now();
  const due = await store.dueWork(accountId, now);
  if (!due.expiries && !due.settlements && !due.keyEnds) return;
  await store.transaction(async () => {
    if (due.expiries) await payments.expireDue(accountId, now);
    if (due.settlements) await payments.settleDue(accountId, now);
    if (due.keyEnds) await store.idempotencyKeys.forgetExpired(accountId, now);
  });
}
