// On the mock, every documented response of every operation, reachable with Prism's
// `Prefer: code=…` and equal to a documented example. (What any server must answer is checked
// by the conformance kit: conformance.test.ts.)
import { describe, expect, it } from "vitest";
import { onMock, send } from "./support/target.ts";
import { documentedExamples, operationRequests } from "./support/operations.ts";

describe.runIf(onMock).each(operationRequests)("$label", ({ method, path, body, operation }) => {
  const statuses = Object.keys(operation.responses);
  it.each(statuses)("gives the documented %s response, a realistic example, when asked", async (status) => {
    const res = await send(method, path, { body, headers: { Prefer: `code=${status}` } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(Number(status));
    expect(documentedExamples(operation, status)).toContainEqual(res.body);
  });
});
