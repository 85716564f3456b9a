// A store filled to the size a team reaches in weeks, through the operations' own handlers (as
// requests would, minus HTTP): `sessions` sessions over `accounts` accounts (`scale-0`, …), ten
// per counterparty. Four accounts at a time, so that PostgreSQL's connections work side by side.
import { Access } from "../../src/sandbox/api/access.ts";
import { handlers } from "../../src/sandbox/api/index.ts";
import type { Call, Sandbox } from "../../src/sandbox/api/operation.ts";
import { Payments } from "../../src/sandbox/flow/payments.ts";
import type { Store } from "../../src/sandbox/store/index.ts";

const SESSIONS_PER_COUNTERPARTY = 10;

/** Fills the store; the sessions of account `payingAccount`, if any, are all paid (their transactions settle a minute later). */
export async function fill(store: Store, sessions: number, accounts: number, payingAccount?: number) {
  // Only the creates run: nothing delivers or journals here.
  const sandbox: Sandbox = {
    store,
    clock: store.clock,
    payments: new Payments(store),
    dispatcher: undefined as never,
    listeners: undefined as never,
    destinations: undefined as never,
    access: new Access(),
    closing: undefined as never,
    origin: "http://127.0.0.1:4010",
  };
  const perAccount = Math.ceil(sessions / accounts);
  const fillAccount = async (a: number) => {
    const account = await store.accounts.forToken(`scale-${a}`);
    const call = (body: unknown): Call => ({ account, body, parameters: {} });
    await store.transaction(async () => {
      let counterpartyId = "";
      for (let s = 0; s < perAccount && a * perAccount + s < sessions; s++) {
        if (s % SESSIONS_PER_COUNTERPARTY === 0) {
          const n = `${a}`.padStart(4, "0") + `${s}`.padStart(6, "0");
          const person = {
            type: "INDIVIDUAL",
            payment_rail: "PAYIN",
            first_name: "Ana",
            last_name: "García",
            email: `ana.${n}@example.com`,
            phone_number: `+34${n}`,
          };
          counterpartyId = ((await handlers.createCounterparty.handle(call(person), sandbox)).body as { id: string }).id;
        }
        const session = {
          amount: 49.99,
          currency: "EUR",
          counterparty_id: counterpartyId,
          order_id: `ORD-${a}-${s}`,
          redirect_url: "https://shop.example.com/thanks",
          source_url: "https://shop.example.com/cart",
        };
        const created = (await handlers.createPaymentSession.handle(call(session), sandbox)) as { body: { id: string } };
        if (a === payingAccount) await sandbox.payments.attempt(account, created.body.id, { outcome: "pay" });
      }
    });
  };
  for (let a = 0; a < accounts; a += 4) await Promise.all(Array.from({ length: Math.min(4, accounts - a) }, (_, i) => fillAccount(a + i)));
}
