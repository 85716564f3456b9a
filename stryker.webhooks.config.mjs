// @ts-check
// `npm run test:mutation:webhooks`, run by .ci/run: the webhook verifier guards merchants' money,
// so its mutation score must stay at 90 % or the run fails. An equivalent mutant is marked in
// the source (`// Stryker disable next-line <mutator>: <why>`), never by lowering `break`.
import base from "./stryker.config.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate: ["src/webhooks/**/*.ts"],
  // The tests about the toolkit only (that file says why): minutes, where every suite that reaches it took 30 to 50.
  vitest: { configFile: "vitest.mutation.webhooks.config.ts" },
  // Only mutants whose code or tests changed since the committed results are run again; the score still counts them
  // all. `npm run test:mutation:webhooks -- --force` runs every one, and rewrites the file to commit.
  incremental: true,
  incrementalFile: "test/mutation/webhooks-incremental.json",
  thresholds: { high: 90, low: 90, break: 90 },
};
