// Requests the contract refuses, answered with its problem: no token, a body that is not JSON,
// too large, or of another media type.
import { CheckFailure, expectAnswer, expectThat, type Check } from "../check.ts";
import { allOperations } from "../oracle.ts";
import { newCounterparty } from "../fixtures.ts";

/** The contract's operations with a concrete path: a path parameter gets a made-up id. */
const contractOperations = allOperations.filter((op) => op.document === "contract").map((op) => ({ ...op, concrete: op.path.replace(/\{[^}]+\}/g, "txn_conformance") }));

/** Runs `check` on each create of the contract, naming the operation in a failure. */
async function eachCreate(check: (op: (typeof contractOperations)[number]) => Promise<void>) {
  for (const op of contractOperations.filter((o) => o.method === "POST")) {
    try {
      await check(op);
    } catch (error) {
      if (!(error instanceof CheckFailure)) throw error;
      throw new CheckFailure(`${op.operationId}: ${error.message}`, error.details);
    }
  }
}

export const requestChecks: Check[] = [
  {
    id: "requests.unauthenticated",
    name: "every operation answers a request without a bearer token with 401 and WWW-Authenticate",
    async run({ target }) {
      for (const op of contractOperations) {
        const answer = await target.call(op.method, op.concrete, { token: null, ...(op.method === "POST" ? { body: {} } : {}) });
        try {
          expectAnswer(answer, 401);
        } catch (error) {
          throw new CheckFailure(`${op.operationId}: ${(error as Error).message}`, (error as CheckFailure).details);
        }
      }
    },
  },
  {
    id: "requests.malformed-json",
    name: "every create answers a body that is not JSON with 400 and the contract's problem",
    run: ({ target }) => eachCreate(async (op) => expectAnswer(await target.call("POST", op.concrete, { body: '{"type": "INDIVIDUAL",' }), 400)),
  },
  {
    id: "requests.oversized-body",
    name: "every create answers a body over the contract's 64 KiB with 413",
    run: ({ target }) => eachCreate(async (op) => expectAnswer(await target.call("POST", op.concrete, { body: { ...newCounterparty(), last_name: "x".repeat(70 * 1024) } }), 413)),
  },
  {
    id: "requests.wrong-media-type",
    name: "every create answers a body sent as text/plain with 415",
    run: ({ target }) =>
      eachCreate(async (op) => {
        const answer = await target.call("POST", op.concrete, { body: JSON.stringify(newCounterparty()), headers: { "content-type": "text/plain" } });
        expectAnswer(answer, 415);
        expectThat(answer.json?.code === "unsupported_media_type", `the problem's code is ${JSON.stringify(answer.json?.code)}, not unsupported_media_type`, answer);
      }),
  },
];
