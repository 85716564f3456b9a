// Schema-driven negative tests: valid requests generated from each request schema are
// accepted; the same requests broken one field at a time get a 4xx problem that names the
// broken field in its errors[], and never a 5xx. Bounded and seeded, so every run sends the same requests.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breakages, validValue } from "./support/schema-arbitraries.ts";
import { operationRequests } from "./support/operations.ts";
import { newCounterparty } from "../support/counterparty.ts";
import { newToken, onSandbox, send, stateful, target } from "./support/target.ts";

const RUNS = { numRuns: 25, seed: 4010, endOnFailure: true };
const withBody = operationRequests.filter((o) => o.operation.requestBody);

/** The fields the answer's problem names in its errors[], as the contract's 422 promises. */
const namedFields = (res: Awaited<ReturnType<typeof send>>) =>
  (((res.body as any)?.errors ?? []) as Array<{ field: string }>).map((e) => e.field);

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

  const ways = breakages(schema);
  it(`rejects bodies broken one field at a time (${ways.length} ways), naming the field`, async () => {
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom(...ways), async (body, breakage) => {
        const broken = structuredClone(body);
        breakage.apply(broken);
        const res = await send(method, path, { body: broken });
        const context = `${breakage.field} ${breakage.how}: ${JSON.stringify(broken)} → ${res.status} ${JSON.stringify(res.body)}`;
        expect(res.breaches, context).toEqual([]);
        expect(res.status, context).toBeGreaterThanOrEqual(400);
        expect(res.status, context).toBeLessThan(500);
        expect(namedFields(res), context).toContain(breakage.field);
      }),
      { ...RUNS, numRuns: Math.max(RUNS.numRuns, ways.length * 2) },
    );
  });
});
