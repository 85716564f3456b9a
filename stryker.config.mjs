// @ts-check
// `npm run test:mutation`: StrykerJS over src/, with the Vitest runner (vitest.mutation.config.ts
// says which tests and why) and the TypeScript checker, which drops mutants that do not compile.
// Reports: reports/mutation/mutation.html and .json (not committed).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ["src/**/*.ts", "!src/**/cli.ts"],
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: "perTest",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // Two cores: one test worker and one type-checker.
  concurrency: 2,
  tempDirName: ".stryker-tmp",
  // What the merchant samples build or keep as they run (a test may be running one): not the project's, and it may
  // vanish while the sandbox is copied.
  ignorePatterns: ["examples/*/build", "examples/*/bin", "examples/*/var", "examples/*/**/__pycache__"],
  cleanTempDir: "always",
  thresholds: { high: 90, low: 80, break: null },
};
