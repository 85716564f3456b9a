// What faults on demand and the request journal cost an account that has no fault armed: the
// sandbox's create payment session rate now, with faults armed on 100 other accounts, against
// the sandbox of the commit before they came, checked out beside the repository. Both run from
// their TypeScript source, in the same alternating rounds, with a second process of the
// earlier sandbox to show the noise.
import { sandboxCli, withEarlierSandbox } from "./earlier.ts";
import { benchSandbox, newCounterparty, printsItsUrl, sessionBody, type Contender, type ServerFigures } from "./sandbox.ts";

/** The last commit without faults and the journal. */
export const BEFORE_FAULTS = "1fcd30f";
const OTHER_ACCOUNTS = 100;

async function armOtherAccounts(url: string) {
  for (let i = 0; i < OTHER_ACCOUNTS; i++) {
    const res = await fetch(`${url}/_sandbox/v1/faults`, {
      method: "POST",
      headers: { Authorization: `Bearer faulty-${i}`, "Content-Type": "application/json" },
      body: JSON.stringify({ target: "request", effect: "status", status: 503, share: 0.5 }),
    });
    if (res.status !== 201) throw new Error(`arm fault answered ${res.status}`);
  }
}

export async function benchFaults(durationSeconds: number): Promise<ServerFigures[]> {
  const now = sandboxCli();
  return withEarlierSandbox(BEFORE_FAULTS, async (before) => {
    const beforeContender = (name: string): Contender => ({
      name,
      start: () => printsItsUrl(process.execPath, [before.cli, "--port", "0"]),
      prepare: async (url) => sessionBody(await newCounterparty(url)),
    });
    const contenders: Contender[] = [
      beforeContender(`before faults (${BEFORE_FAULTS})`),
      // The same code in another process: how far apart two runs of one server land, the noise.
      beforeContender("before faults, a second process"),
      {
        name: `now, ${OTHER_ACCOUNTS} other accounts with faults`,
        start: () => printsItsUrl(process.execPath, [now, "--port", "0"]),
        prepare: async (url) => {
          await armOtherAccounts(url);
          return sessionBody(await newCounterparty(url));
        },
      },
    ];
    return benchSandbox(durationSeconds, { contenders, startups: 1 });
  });
}
