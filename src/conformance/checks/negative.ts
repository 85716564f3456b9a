// Invalid requests generated from the contract's request schemas, a field at a time (which of
// them, from the run's seed): each must be refused with a 4xx problem that names the broken
// field, never a 5xx.
import { CheckFailure, expectAnswer, shown, type Check, type CheckContext } from "../check.ts";
import { breakages, requestSchema } from "../breakages.ts";
import type { Exchange } from "../target.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";

/** Breaks sent of each request, drawn from all its single-field breaks. */
const VARIANTS = 16;

type Body = Record<string, unknown>;

/**
 * Sends breaks of `valid` (drawn with the run's seed from every single-field break of the
 * operation's schema) and each of `known` (a body and every field it breaks, for rules beyond
 * the schemas); each must be refused with a 4xx problem naming the broken field (each, for `known`).
 */
async function refusesEachBreak(
  { target, random }: CheckContext,
  path: string,
  template: string,
  valid: Body,
  known: Array<[Body, string[]]> = [],
) {
  const generated = pick(breakages(requestSchema("POST", template)), VARIANTS, random).map((breakage): [Body, string[], boolean] => {
    const body = structuredClone(valid);
    breakage.apply(body);
    return [body, [breakage.field], false];
  });
  for (const [body, fields, all] of [...known.map(([b, f]): [Body, string[], boolean] => [b, f, true]), ...generated])
    expectRefused(await target.call("POST", path, { body }), fields, all);
}

/** Fails unless the answer is a 4xx problem that names the fields (any of them, or with `all`, each). */
export function expectRefused(answer: Exchange, fields: readonly string[], all: boolean) {
  if (answer.answer.status >= 500)
    throw new CheckFailure(
      `an invalid body was answered ${answer.answer.status}, a server error, where a 4xx problem naming ${fields.join(" and ")} is due`,
      shown(answer),
    );
  expectAnswer(answer, 400, 422);
  const named: string[] = (answer.json?.errors ?? []).map((e: { field: string }) => e.field);
  const missing = fields.filter((field) => !named.includes(field));
  if (all ? missing.length > 0 : missing.length === fields.length)
    throw new CheckFailure(
      `the problem names ${named.length ? named.join(", ") : "no field"}, ` +
        `not the broken ${(all ? missing : fields).join(all ? " and " : " or ")}`,
      shown(answer),
    );
}

/** `count` items drawn without repetition. */
function pick<T>(items: T[], count: number, random: () => number): T[] {
  const left = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && left.length > 0) chosen.push(left.splice(Math.floor(random() * left.length), 1)[0]!);
  return chosen;
}

/** URLs no client could reach: an impossible port, an impossible address, port 0. */
const UNREACHABLE = ["https://shop.example.com:99999/x", "https://999.0.0.1/x", "https://shop.example.com:0/x"];

export const negativeChecks: Check[] = [
  {
    id: "negative.create-counterparty",
    name:
      `create counterparty refuses ${VARIANTS} generated invalid bodies, ` +
      "a bad email with a bad country and a PAYOUT rail, with a 4xx problem naming each broken field",
    run: (context) => {
      const valid = newCounterparty();
      return refusesEachBreak(context, PATHS.counterparties, PATHS.counterparties, valid, [
        [
          { ...valid, email: "not-an-email", address: { line_1: "Calle 1", city: "Madrid", country_code: "spain" } },
          ["email", "address.country_code"],
        ],
        [{ ...valid, payment_rail: "PAYOUT" }, ["payment_rail"]],
      ]);
    },
  },
  {
    id: "negative.create-payment-session",
    name:
      `create payment session refuses ${VARIANTS} generated invalid bodies, ` +
      "and amounts finer than their currency, script and http:// URLs and control characters, naming the field",
    async run(context) {
      const counterparty = await context.target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const valid = sessionBody(counterparty.json.id);
      const { redirect_url: _, ...withoutRedirect } = valid;
      await refusesEachBreak(context, PATHS.sessions, PATHS.sessions, valid, [
        // More decimals than the currency has (the contract's x-minor-units), which no schema states.
        ...[
          [49.999, "EUR"],
          [10.5, "JPY"],
          [1.2345, "KWD"],
          [1e-7, "EUR"],
          [5e-324, "EUR"],
          [0.30000000000000004, "EUR"],
        ].map(([amount, currency]): [Body, string[]] => [{ ...valid, amount, currency }, ["amount"]]),
        [{ ...valid, amount: 0, currency: "eur" }, ["amount", "currency"]],
        [withoutRedirect, ["redirect_url"]],
        ...["redirect_url", "source_url"].flatMap((field) =>
          [
            "javascript:alert(document.cookie)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox(1)",
            "http://shop.example.com/thanks",
          ].map((url): [Body, string[]] => [{ ...valid, [field]: url }, [field]]),
        ),
        ...["ORD-1\u0000<script>", "ORD-1\nforged log line", "ORD-\u009b1"].map((order_id): [Body, string[]] => [
          { ...valid, order_id },
          ["order_id"],
        ]),
      ]);
    },
  },
  {
    id: "negative.register-webhook",
    name: `register webhook refuses generated invalid bodies, and a URL that is not https://, naming url`,
    run: (context) =>
      refusesEachBreak(context, PATHS.webhooks, PATHS.webhooks, { url: "https://shop.example.com/payin-conformance/webhooks" }, [
        [{ url: "http://shop.example.com/payin-conformance/webhooks" }, ["url"]],
      ]),
  },
  {
    id: "negative.counterparty-schema-query",
    name: "get counterparty schema refuses a payment_rail or type the contract does not list, or none, with 422 naming it",
    async run({ target }) {
      const cases = [
        ["payment_rail=PAYOUT&type=INDIVIDUAL", "payment_rail"],
        ["payment_rail=PAYIN&type=COMPANY", "type"],
        ["type=INDIVIDUAL", "payment_rail"],
      ] as const;
      for (const [query, field] of cases) {
        const answer = await target.call("GET", PATHS.counterpartySchema(query));
        expectAnswer(answer, 422);
        const named: string[] = (answer.json?.errors ?? []).map((e: { field: string }) => e.field);
        if (!named.includes(field))
          throw new CheckFailure(`the problem names ${named.join(", ") || "no field"}, not ${field}`, shown(answer));
      }
    },
  },
  {
    id: "negative.unreachable-urls",
    name: "a webhook, redirect or source URL no client could reach (port 99999, address 999.0.0.1, port 0) is refused with 422 naming it",
    needs: ["state"],
    async run({ target }) {
      const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      for (const url of UNREACHABLE) {
        expectRefused(await target.call("POST", PATHS.webhooks, { body: { url } }), ["url"], true);
        for (const field of ["redirect_url", "source_url"])
          expectRefused(
            await target.call("POST", PATHS.sessions, { body: { ...sessionBody(counterparty.json.id), [field]: url } }),
            [field],
            true,
          );
      }
    },
  },
];
