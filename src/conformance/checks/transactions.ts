// Fetching a transaction: an unknown one is 404, an id longer than the contract allows is 422,
// and one the payment flow made (through the control API) is 200 in the state it was left.
import { CheckFailure, expectAnswer, expectThat, shown, type Check } from "../check.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";

export const transactionChecks: Check[] = [
  {
    id: "transactions.unknown",
    name: "get transaction answers an id no transaction has with 404 not_found",
    needs: ["state"],
    async run({ target }) {
      const answer = await target.call("GET", PATHS.transaction(`txn_conformance_${crypto.randomUUID().slice(0, 8)}`));
      expectAnswer(answer, 404);
      expectThat(answer.json.code === "not_found", `the problem's code is ${JSON.stringify(answer.json.code)}, not not_found`, answer);
    },
  },
  {
    id: "transactions.id-too-long",
    name: "get transaction answers an id longer than 64 characters with 422 naming transaction_id",
    async run({ target }) {
      const answer = await target.call("GET", PATHS.transaction(`txn_${"x".repeat(80)}`));
      expectAnswer(answer, 422);
      const named: string[] = (answer.json?.errors ?? []).map((e: { field: string }) => e.field);
      if (!named.includes("transaction_id"))
        throw new CheckFailure(`the problem names ${named.join(", ") || "no field"}, not transaction_id`, shown(answer));
    },
  },
  {
    id: "transactions.after-payment",
    name: "a paid session's transaction is fetched with 200, completed, for the session's amount",
    needs: ["control"],
    async run({ target }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const sent = sessionBody(counterparty.json.id);
      const session = await target.call("POST", PATHS.sessions, { body: sent });
      expectAnswer(session, 201);
      const paid = await target.call("POST", PATHS.simulate(session.json.id), { body: { outcome: "pay" } });
      expectAnswer(paid, 200);
      const fetched = await target.call("GET", PATHS.transaction(paid.json.transaction.id));
      expectAnswer(fetched, 200);
      const { status, session_id, amount, currency } = fetched.json;
      expectThat(status === "completed", `the transaction is ${status}, not completed`, fetched);
      expectThat(
        session_id === session.json.id && amount === sent.amount && currency === sent.currency,
        "the transaction is not of the session that was paid",
        fetched,
      );
    },
  },
];
