// The seed's rules, which only a target that keeps state can show: the email and phone
// combination is unique, a counterparty may have several sessions, a link is valid one hour,
// registering again updates the URL and keeps the secret, an Idempotency-Key replays.
import { expectAnswer, expectThat, type Check } from "../check.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";
import { SESSION_LIFETIME_MS } from "../../lib/contract-facts.ts";

export const ruleChecks: Check[] = [
  {
    id: "rules.counterparty-unique",
    name: "a second counterparty with the same email and phone number is refused with 409 naming the first",
    needs: ["state"],
    async run({ target }) {
      const body = newCounterparty();
      const first = await target.call("POST", PATHS.counterparties, { body });
      expectAnswer(first, 201);
      const again = await target.call("POST", PATHS.counterparties, { body: { ...body, first_name: "Someone" } });
      expectAnswer(again, 409);
      expectThat(
        again.json.code === "counterparty_exists",
        `the problem's code is ${JSON.stringify(again.json.code)}, not counterparty_exists`,
        again,
      );
      expectThat(
        again.json.existing_id === first.json.id,
        `existing_id is ${JSON.stringify(again.json.existing_id)}, not the first counterparty's ${first.json.id}`,
        again,
      );
    },
  },
  {
    id: "rules.same-email-other-phone",
    name: "the same email with another phone number is another counterparty (201)",
    needs: ["state"],
    async run({ target }) {
      const body = newCounterparty();
      const first = await target.call("POST", PATHS.counterparties, { body });
      expectAnswer(first, 201);
      const other = await target.call("POST", PATHS.counterparties, {
        body: { ...body, phone_number: `${body.phone_number.slice(0, -1)}${(Number(body.phone_number.at(-1)) + 1) % 10}` },
      });
      expectAnswer(other, 201);
      expectThat(other.json.id !== first.json.id, "the second counterparty has the first one's id", other);
    },
  },
  {
    id: "rules.sessions-per-counterparty",
    name: "a counterparty may have several payment sessions, each valid one hour",
    needs: ["state"],
    async run({ target }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const sessions = [];
      for (let i = 0; i < 2; i++) {
        const session = await target.call("POST", PATHS.sessions, { body: sessionBody(counterparty.json.id) });
        expectAnswer(session, 201);
        const lifetime = Date.parse(session.json.expires_at) - Date.parse(session.json.created_at);
        expectThat(
          lifetime === SESSION_LIFETIME_MS,
          `the session expires ${lifetime / 1000} s after it was created, not one hour`,
          session,
        );
        sessions.push(session.json.id);
      }
      expectThat(sessions[0] !== sessions[1], "two sessions share an id");
    },
  },
  {
    id: "rules.webhook-register-again",
    name: "registering another webhook URL answers 200, updates the URL and keeps the signing secret",
    needs: ["state"],
    async run({ target }) {
      const first = await target.call("POST", PATHS.webhooks, { body: { url: "https://shop.example.com/payin-conformance/a" } });
      expectAnswer(first, 200, 201);
      const second = await target.call("POST", PATHS.webhooks, { body: { url: "https://shop.example.com/payin-conformance/b" } });
      expectAnswer(second, 200);
      expectThat(second.json.signing_secret === first.json.signing_secret, "registering again changed the signing secret", second);
      const fetched = await target.call("GET", PATHS.webhooks);
      expectAnswer(fetched, 200);
      expectThat(
        fetched.json.url === "https://shop.example.com/payin-conformance/b",
        `get webhook shows ${fetched.json.url}, not the URL registered last`,
        fetched,
      );
    },
  },
  {
    id: "rules.idempotency",
    name: "an Idempotency-Key replays the first answer for the same body and is refused (409) with another",
    needs: ["state"],
    async run({ target }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const headers = { "idempotency-key": crypto.randomUUID() };
      const body = sessionBody(counterparty.json.id);
      const first = await target.call("POST", PATHS.sessions, { body, headers });
      const replay = await target.call("POST", PATHS.sessions, { body, headers });
      expectAnswer(first, 201);
      expectAnswer(replay, 201);
      expectThat(replay.json.id === first.json.id, `the replay made another session (${replay.json.id}, first ${first.json.id})`, replay);
      const other = await target.call("POST", PATHS.sessions, { body: { ...body, amount: 11 }, headers });
      expectAnswer(other, 409);
      expectThat(
        other.json.code === "idempotency_key_reused",
        `the problem's code is ${JSON.stringify(other.json.code)}, not idempotency_key_reused`,
        other,
      );
    },
  },
  {
    id: "rules.email-case",
    name: "emails compare without regard to case: the same address in capitals with the same phone number is refused with 409",
    needs: ["state"],
    async run({ target }) {
      const body = newCounterparty();
      const first = await target.call("POST", PATHS.counterparties, { body });
      expectAnswer(first, 201);
      const shouted = await target.call("POST", PATHS.counterparties, { body: { ...body, email: body.email.toUpperCase() } });
      expectAnswer(shouted, 409);
      expectThat(
        shouted.json.existing_id === first.json.id,
        `existing_id is ${JSON.stringify(shouted.json.existing_id)}, not ${first.json.id}`,
        shouted,
      );
    },
  },
  {
    id: "rules.concurrent-creates",
    name: "50 identical creates at once make exactly one counterparty: one 201 and 49 409s naming it",
    needs: ["state"],
    async run({ target }) {
      const body = newCounterparty();
      const answers = await Promise.all(Array.from({ length: 50 }, () => target.call("POST", PATHS.counterparties, { body })));
      for (const answer of answers) expectAnswer(answer, 201, 409);
      const created = answers.filter((a) => a.answer.status === 201);
      expectThat(created.length === 1, `${created.length} of 50 identical creates answered 201, not exactly one`);
      const refused = answers.filter((a) => a.json.existing_id !== created[0]!.json.id && a !== created[0]);
      expectThat(
        refused.length === 0,
        `a 409 names ${refused[0]?.json.existing_id}, not the counterparty made, ${created[0]!.json.id}`,
        refused[0],
      );
    },
  },
  {
    id: "rules.unknown-counterparty",
    name: "a session for a counterparty the account does not have is refused with 422 naming counterparty_id",
    needs: ["state"],
    async run({ target }) {
      const answer = await target.call("POST", PATHS.sessions, { body: sessionBody(`cp_unknown_${crypto.randomUUID().slice(0, 8)}`) });
      expectAnswer(answer, 422);
      const named: string[] = (answer.json?.errors ?? []).map((e: { field: string }) => e.field);
      expectThat(named.includes("counterparty_id"), `the problem names ${named.join(", ") || "no field"}, not counterparty_id`, answer);
    },
  },
];
