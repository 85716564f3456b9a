// Each operation answered as the contract says, for a valid request: any target, the mock included.
import { expectAnswer, expectThat, type Check } from "../check.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";

export const answerChecks: Check[] = [
  {
    id: "answers.webhook-not-registered",
    name: "get webhook answers an account with no webhook URL with 404 webhook_not_registered",
    needs: ["control"],
    async run({ target }) {
      // The control API empties the account first: its records, its webhook, its clock.
      const reset = await target.call("POST", "/_sandbox/v1/reset");
      expectAnswer(reset, 204);
      const answer = await target.call("GET", PATHS.webhooks);
      expectAnswer(answer, 404);
      expectThat(answer.json.code === "webhook_not_registered", `the problem's code is ${JSON.stringify(answer.json.code)}, not webhook_not_registered`, answer);
    },
  },
  {
    id: "answers.create-counterparty",
    name: "create counterparty answers 201 with the counterparty, as the contract describes it",
    async run({ target }) {
      const sent = newCounterparty();
      const created = await target.call("POST", PATHS.counterparties, { body: sent });
      expectAnswer(created, 201);
      expectThat(typeof created.json.id === "string", "the counterparty has no id", created);
    },
  },
  {
    id: "answers.counterparty-schema",
    name: "get counterparty schema answers 200 with a JSON Schema of the PAYIN individual",
    async run({ target }) {
      const schema = await target.call("GET", PATHS.counterpartySchema);
      expectAnswer(schema, 200);
    },
  },
  {
    id: "answers.create-payment-session",
    name: "create payment session answers 201 with a payment_link",
    async run({ target }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const session = await target.call("POST", PATHS.sessions, { body: sessionBody(counterparty.json.id) });
      expectAnswer(session, 201);
    },
  },
  {
    id: "answers.register-webhook",
    name: "register webhook answers 200 or 201 with a whsec_ signing secret, and get webhook answers 200 without it",
    async run({ target, receiver }) {
      const url = receiver?.url ?? "https://shop.example.com/payin-conformance/webhooks";
      const registered = await target.call("POST", PATHS.webhooks, { body: { url } });
      expectAnswer(registered, 200, 201);
      const fetched = await target.call("GET", PATHS.webhooks);
      expectAnswer(fetched, 200);
      expectThat(!("signing_secret" in fetched.json), "get webhook shows the signing secret", fetched);
    },
  },
];
