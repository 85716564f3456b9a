// Invalid requests generated from a valid one, a field at a time (reproducible from the run's
// seed): each must be refused with a 4xx problem that names the broken field, never a 5xx.
// The contract's own request validators decide which fields a variant breaks.
import { operations, type OperationId, type RequestValidator } from "../../../generated/sandbox-requests.js";
import { ajvErrorField } from "../../lib/field.ts";
import { CheckFailure, expectAnswer, shown, type Check, type CheckContext } from "../check.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";

/** The contract's validator of an operation's body. */
const bodyValidator = (operationId: OperationId) => operations.find((op) => op.operationId === operationId)!.validateBody!;

/** Variants of each request: this many, drawn from all the field-by-field breaks. */
const VARIANTS = 12;

type Body = Record<string, unknown>;

/** Every single-field break of `body`: each field left out, of another type, empty, too long, null; and a field the contract does not have. */
function breaks(body: Body): Body[] {
  const variants: Body[] = [{ ...body, unexpected_field: 1 }];
  for (const [field, value] of Object.entries(body)) {
    const { [field]: _, ...without } = body;
    variants.push(without, { ...body, [field]: null }, { ...body, [field]: typeof value === "number" ? "12" : 12 }, { ...body, [field]: "" }, { ...body, [field]: "x".repeat(5000) });
  }
  return variants;
}

/** Fields a body breaks, as the contract's validator names them; none when it is valid. */
function brokenFields(validate: RequestValidator, body: Body): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => ajvErrorField(e));
}

async function refusesEachBreak({ target, random }: CheckContext, path: string, valid: Body, validate: RequestValidator, extra: Array<[Body, string]> = []) {
  const all: Array<[Body, string[]]> = breaks(valid)
    .map((body): [Body, string[]] => [body, brokenFields(validate, body)])
    .filter(([, fields]) => fields.length > 0);
  const chosen = [...extra.map(([body, field]): [Body, string[]] => [body, [field]]), ...pick(all, VARIANTS, random)];
  for (const [body, fields] of chosen) {
    const answer = await target.call("POST", path, { body });
    if (answer.answer.status >= 500) throw new CheckFailure(`an invalid body was answered ${answer.answer.status}, a server error, where a 4xx problem naming ${fields.join(" or ")} is due`, shown(answer));
    expectAnswer(answer, 400, 422);
    const named: string[] = (answer.json?.errors ?? []).map((e: { field: string }) => e.field);
    if (!fields.some((field) => named.includes(field)))
      throw new CheckFailure(`the problem names ${named.length ? named.join(", ") : "no field"}, not the broken ${fields.join(" or ")}`, shown(answer));
  }
}

/** `count` items drawn without repetition. */
function pick<T>(items: T[], count: number, random: () => number): T[] {
  const left = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && left.length > 0) chosen.push(left.splice(Math.floor(random() * left.length), 1)[0]!);
  return chosen;
}

export const negativeChecks: Check[] = [
  {
    id: "negative.create-counterparty",
    name: `create counterparty refuses ${VARIANTS} generated invalid bodies with a 4xx problem naming the broken field`,
    run: (context) => refusesEachBreak(context, PATHS.counterparties, newCounterparty(), bodyValidator("createCounterparty")),
  },
  {
    id: "negative.create-payment-session",
    name: `create payment session refuses ${VARIANTS} generated invalid bodies, and an amount finer than its currency, naming the field`,
    async run(context) {
      const counterparty = await context.target.call("POST", PATHS.counterparties, { body: newCounterparty() });
      expectAnswer(counterparty, 201);
      const valid = sessionBody(counterparty.json.id);
      await refusesEachBreak(context, PATHS.sessions, valid, bodyValidator("createPaymentSession"), [[{ ...valid, amount: 10.001 }, "amount"]]);
    },
  },
  {
    id: "negative.register-webhook",
    name: `register webhook refuses generated invalid bodies, and a URL that is not https://, naming url`,
    run: (context) =>
      refusesEachBreak(context, PATHS.webhooks, { url: "https://shop.example.com/payin-conformance/webhooks" }, bodyValidator("registerWebhook"), [
        [{ url: "http://shop.example.com/payin-conformance/webhooks" }, "url"],
      ]),
  },
  {
    id: "negative.counterparty-schema-query",
    name: "get counterparty schema refuses a payment_rail or type the contract does not list with 422 naming it",
    async run({ target }) {
      for (const [query, field] of [["payment_rail=PAYOUT&type=INDIVIDUAL", "payment_rail"], ["payment_rail=PAYIN&type=COMPANY", "type"]] as const) {
        const answer = await target.call("GET", `/api/v1/send/counterparties/schema/?${query}`);
        expectAnswer(answer, 422);
        const named: string[] = (answer.json?.errors ?? []).map((e: { field: string }) => e.field);
        if (!named.includes(field)) throw new CheckFailure(`the problem names ${named.join(", ") || "no field"}, not ${field}`, shown(answer));
      }
    },
  },
];
