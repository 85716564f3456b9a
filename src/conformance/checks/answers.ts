// Each operation answered as the contract says, for a valid request: any target, the mock included.
import { expectAnswer, expectThat, type Check, type CheckContext } from "../check.ts";
import type { Exchange } from "../target.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";
import { SESSION_LIFETIME_MS } from "../../lib/contract-facts.ts";

/** Fails unless the record created holds each field as it was sent (a stateless mock answers its example instead). */
function expectSent(offers: CheckContext["offers"], sent: Record<string, unknown>, created: Exchange) {
  if (!offers.has("state")) return;
  const differ = Object.keys(sent).filter((field) => JSON.stringify(created.json[field]) !== JSON.stringify(sent[field]));
  expectThat(differ.length === 0, `the record differs from what was sent in ${differ.join(", ")}`, created);
}

export const answerChecks: Check[] = [
  {
    id: "answers.webhook-not-registered",
    name: "get webhook answers an account with no webhook URL with 404 webhook_not_registered",
    needs: ["control"],
    async run({ target }) {
      // The control API empties the account first: its records, its webhook, its clock.
      const reset = await target.call("POST", PATHS.reset);
      expectAnswer(reset, 204);
      const answer = await target.call("GET", PATHS.webhooks);
      expectAnswer(answer, 404);
      expectThat(
        answer.json.code === "webhook_not_registered",
        `the problem's code is ${JSON.stringify(answer.json.code)}, not webhook_not_registered`,
        answer,
      );
    },
  },
  {
    id: "answers.create-counterparty",
    name: "create counterparty answers 201 with the counterparty, as the contract describes it and as it was sent",
    async run({ target, offers }) {
      const sent = newCounterparty();
      const created = await target.call("POST", PATHS.counterparties, { body: sent });
      expectAnswer(created, 201);
      expectThat(typeof created.json.id === "string", "the counterparty has no id", created);
      expectSent(offers, sent, created);
    },
  },
  {
    id: "answers.counterparty-schema",
    name: "get counterparty schema answers 200 with a JSON Schema of the PAYIN individual",
    async run({ target }) {
      const schema = await target.call("GET", PATHS.counterpartySchema());
      expectAnswer(schema, 200);
      const required: unknown = schema.json.required_fields;
      expectThat(
        Array.isArray(required) && required.includes("email") && required.includes("phone_number"),
        "required_fields does not list email and phone_number, which the seed requires",
        schema,
      );
    },
  },
  {
    id: "answers.create-payment-session",
    name: "create payment session answers 201 with the session as it was sent, created, valid one hour, with a web payment_link",
    async run({ target, offers }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const sent = sessionBody(counterparty.json.id);
      const session = await target.call("POST", PATHS.sessions, { body: sent });
      expectAnswer(session, 201);
      expectSent(offers, sent, session);
      const { status, created_at, expires_at, payment_link } = session.json;
      expectThat(status === "created", `the new session is ${status}, not created`, session);
      expectThat(
        Date.parse(expires_at) - Date.parse(created_at) === SESSION_LIFETIME_MS,
        `the link is valid from ${created_at} to ${expires_at}, not one hour`,
        session,
      );
      expectThat(
        /^https?:$/.test(URL.parse(payment_link)?.protocol ?? ""),
        `payment_link ${JSON.stringify(payment_link)} is no web URL a customer can open`,
        session,
      );
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
  {
    id: "answers.amount-minor-units",
    name: "create payment session takes an amount within its currency's minor units (10 JPY, 1.234 KWD, 0.07 EUR, 1.5 CHF)",
    async run({ target }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      for (const [amount, currency] of [
        [10, "JPY"],
        [1.234, "KWD"],
        [0.07, "EUR"],
        [1.5, "CHF"],
      ] as const)
        expectAnswer(await target.call("POST", PATHS.sessions, { body: { ...sessionBody(counterparty.json.id), amount, currency } }), 201);
    },
  },
];
