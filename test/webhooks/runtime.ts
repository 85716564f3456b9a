// Runs a call of the webhook toolkit as another runtime would. The toolkit looks for node:crypto
// through `process.getBuiltinModule` as a call starts, so `process` is swapped for the
// synchronous start of the call only, and put back before anything is awaited.
import { vi } from "vitest";

type Run = <T>(call: () => Promise<T>) => Promise<T>;

function withProcess(process: undefined | Record<string, never>): Run {
  return (call) => {
    vi.stubGlobal("process", process);
    try {
      return call();
    } finally {
      vi.unstubAllGlobals();
    }
  };
}

/** The runtimes without node:crypto, each with a function that runs a call as there. */
export const WITHOUT_NODE_CRYPTO: Array<[string, Run]> = [
  ["a runtime without process (a browser, an edge runtime)", withProcess(undefined)],
  ["a runtime whose process has no getBuiltinModule (Node before 20.16)", withProcess({})],
];

/** Node itself, then the runtimes without node:crypto. */
export const RUNTIMES: Array<[string, Run]> = [["Node", (call) => call()], ...WITHOUT_NODE_CRYPTO];
