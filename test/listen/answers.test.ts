// A listener's answers to its deliveries (POST /_sandbox/v1/listen/deliveries/{delivery_id}),
// through HTTP: the one a delivery waits for is taken once, and any other (forged, or answered
// already) is refused without a statement, a transaction or a message to the other processes, so
// that a flood of them costs the database nothing. A file of its own: the statements counted are
// this sandbox's only, on a clock that stands still so that none of its timers runs meanwhile.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { accountOn } from "../support/sandbox-account.ts";

describe("a listener's answers over HTTP, on a clock that stands still", () => {
  let still: RunningSandbox;
  beforeAll(async () => {
    still = await startSandbox({ port: 0, clock: new ManualClock() });
  });
  afterAll(() => still.close());
  afterEach(() => vi.restoreAllMocks());

  /** The events of a listener's stream, as they come: each `event` with its JSON `data`. */
  async function* streamOf(res: Response) {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) yield { event, data: JSON.parse(data) };
      }
    }
  }

  it("takes a delivery's answer once, and refuses others with no statement, no transaction and no message", async () => {
    const account = accountOn(still.url);
    const stop = new AbortController();
    const res = await fetch(`${still.url}/_sandbox/v1/listen`, {
      headers: { Authorization: `Bearer ${account.token}` },
      signal: stop.signal,
    });
    const events = streamOf(res);
    expect((await events.next()).value).toMatchObject({ event: "ready" });
    await account.session();
    const { value } = await events.next();
    expect(value).toMatchObject({ event: "delivery", data: { delivery_id: expect.stringMatching(/^dlv_/) } });
    const id: string = value!.data.delivery_id;
    const answer = (delivery: string) => account.call("POST", `/_sandbox/v1/listen/deliveries/${delivery}`, { status: 204 });

    const spies = (["run", "get", "all", "transaction", "notify"] as const).map((name) => vi.spyOn(SqliteDatabase.prototype, name));
    const forged = await Promise.all(Array.from({ length: 50 }, (_, n) => answer(`dlv_${String(n).padStart(36, "x")}`)));
    expect(new Set(forged.map((r) => r.status))).toEqual(new Set([404]));
    expect(spies.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0, 0]);
    vi.restoreAllMocks();

    expect((await answer(id)).status).toBe(204);
    await expect.poll(async () => (await account.deliveries()).map((d) => d.status)).toEqual(["succeeded"]);
    expect(await answer(id)).toMatchObject({
      status: 409,
      body: { code: "delivery_answered", detail: `The delivery ${id} was answered already.` },
    });
    stop.abort();
  });
});
