// @ts-check
// `npm run test:mutation:webhooks`, run by .ci/run: the webhook verifier guards merchants' money,
// so its mutation score must stay at 90 % or the run fails. An equivalent mutant is marked in
// the source (`// Stryker disable next-line <mutator>: <why>`), never by lowering `break`.
import base from "./stryker.config.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate: ["src/webhooks/**/*.ts"],
  thresholds: { high: 90, low: 90, break: 90 },
};
