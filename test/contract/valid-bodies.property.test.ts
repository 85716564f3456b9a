// Valid requests generated from each request schema are accepted (bounded and seeded, so every
// run sends the same requests). The same requests broken a field at a time are the conformance
// kit's negative checks (conformance.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validValue } from "./support/schema-arbitraries.ts";
import { operationRequests } from "./support/operations.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { newToken, onSandbox, send, stateful, target } from "./support/target.ts";

const RUNS = { numRuns: 25, seed: 4010, endOnFailure: true };
const withBody = operationRequests.filter((o) => o.operation.requestBody);

describe.each(withBody)("$label", ({ method, path, operation }) => {
  const schema = operation.requestBody.content["application/json"].schema;
  const bodies = validValue(schema) as fc.Arbitrary<Record<string, any>>;

  // A real server would create real records from random data; the mock and the sandbox are
  // asked, the sandbox with a new account for each body and a real counterparty for sessions.
  it.runIf(target !== "server")("accepts valid bodies generated from the schema", async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const as = onSandbox ? newToken() : undefined;
        if (stateful && "counterparty_id" in body) {
          const created = await send("POST", "/api/v1/send/counterparties/", { body: newCounterparty(), ...(as ? { as } : {}) });
          body.counterparty_id = (created.body as { id: string }).id;
        }
        const res = await send(method, path, { body, ...(as ? { as } : {}) });
        expect(res.breaches).toEqual([]);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      }),
      RUNS,
    );
  });
});
