// Requests the contract refuses, answered with its problem and never a 5xx or a hang: no bearer
// token, a body that is not JSON, not UTF-8, in another charset, empty, too large, or of another
// media type, and a path the contract does not have.
import { CheckFailure, expectAnswer, expectThat, shown, type Check } from "../check.ts";
import { allOperations } from "../oracle.ts";
import { newCounterparty, PATHS } from "../fixtures.ts";

/** The contract's operations with a concrete path: a path parameter gets a made-up id. */
const contractOperations = allOperations
  .filter((op) => op.document === "contract")
  .map((op) => ({ ...op, concrete: op.path.replace(/\{[^}]+\}/g, "txn_conformance") }));
type ContractOperation = (typeof contractOperations)[number];

/** Runs `check` on each operation (each create, with `creates`), naming the operation in a failure. */
async function each(check: (op: ContractOperation) => Promise<void>, { creates = false } = {}) {
  for (const op of contractOperations.filter((o) => !creates || o.method === "POST")) {
    try {
      await check(op);
    } catch (error) {
      if (!(error instanceof CheckFailure)) throw error;
      throw new CheckFailure(`${op.operationId}: ${error.message}`, error.details);
    }
  }
}

const creates = { creates: true };

export const requestChecks: Check[] = [
  {
    id: "requests.unauthenticated",
    name: "every operation answers a request without a bearer token, or with another scheme, with 401 and WWW-Authenticate",
    run: ({ target }) =>
      each(async (op) => {
        const body = op.method === "POST" ? { body: {} } : {};
        expectAnswer(await target.call(op.method, op.concrete, { token: null, ...body }), 401);
        expectAnswer(
          await target.call(op.method, op.concrete, {
            token: null,
            headers: { authorization: `Basic ${btoa("merchant:secret")}` },
            ...body,
          }),
          401,
        );
      }),
  },
  {
    id: "requests.malformed-json",
    name: "every create answers a body that is not JSON with 400 and the contract's problem",
    run: ({ target }) =>
      each(async (op) => expectAnswer(await target.call("POST", op.concrete, { body: '{"type": "INDIVIDUAL",' }), 400), creates),
  },
  {
    id: "requests.not-utf8",
    name: "every create answers a JSON body that is not UTF-8 with 400, rather than reading it as something else",
    run: ({ target }) => {
      const invalid = Buffer.concat([Buffer.from('{"first_name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      return each(async (op) => expectAnswer(await target.call("POST", op.concrete, { body: invalid }), 400), creates);
    },
  },
  {
    id: "requests.foreign-charset",
    name: "every create answers JSON declared in a charset other than UTF-8 with 415",
    run: ({ target }) =>
      each(async (op) => {
        const answer = await target.call("POST", op.concrete, {
          body: newCounterparty(),
          headers: { "content-type": "application/json; charset=iso-8859-1" },
        });
        expectAnswer(answer, 415);
      }, creates),
  },
  {
    id: "requests.wrong-media-type",
    name: "every create answers a body sent as text/plain with 415",
    run: ({ target }) =>
      each(async (op) => {
        const answer = await target.call("POST", op.concrete, {
          body: JSON.stringify(newCounterparty()),
          headers: { "content-type": "text/plain" },
        });
        expectAnswer(answer, 415);
        expectThat(
          answer.json?.code === "unsupported_media_type",
          `the problem's code is ${JSON.stringify(answer.json?.code)}, not unsupported_media_type`,
          answer,
        );
      }, creates),
  },
  {
    id: "requests.empty-body",
    name: "every create answers an empty body with a 4xx problem",
    run: ({ target }) =>
      each(async (op) => {
        const answer = await target.call("POST", op.concrete, { body: "" });
        expectThat(
          answer.answer.status >= 400 && answer.answer.status < 500,
          `an empty body was answered ${answer.answer.status}, not a 4xx`,
          answer,
        );
        expectAnswer(answer, answer.answer.status);
      }, creates),
  },
  {
    id: "requests.oversized-body",
    name: "every create answers a body over the contract's 64 KiB with 413",
    run: ({ target }) =>
      each(
        async (op) =>
          expectAnswer(await target.call("POST", op.concrete, { body: { ...newCounterparty(), last_name: "x".repeat(70 * 1024) } }), 413),
        creates,
      ),
  },
  {
    id: "requests.huge-body",
    name: "a body of 20 MB is answered 413, without hanging",
    async run({ target }) {
      expectAnswer(await target.call("POST", PATHS.counterparties, { body: { first_name: "x".repeat(20 * 1024 * 1024) } }), 413);
    },
  },
  {
    id: "requests.unknown-path",
    name: "a path the contract does not have is answered 404 with a problem",
    async run({ target }) {
      const answer = await target.call("GET", PATHS.unknown);
      expectThat(answer.answer.status === 404, `answered ${answer.answer.status}, not 404`, answer);
      const type = answer.answer.headers.get("content-type") ?? "";
      if (!type.startsWith("application/problem+json") || answer.json?.status !== 404)
        throw new CheckFailure("the 404 is not a problem document", shown(answer));
    },
  },
];
