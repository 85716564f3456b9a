// The tests Stryker runs against each mutant: the ones that call src/ in this process (a mutant
// is switched on inside the test worker, so code run by a CLI child process or by a global setup
// never sees it), without the lint, build, docs and packaging tests that take minutes and
// mutate nothing.
import { defineConfig } from "vitest/config";
import main from "./vitest.config.ts";

export default defineConfig({
  // The example merchant imports the package by name, resolved to src/ as in every run.
  resolve: main.resolve,
  test: {
    include: [
      "test/contract/**/*.test.ts",
      "test/conformance/**/*.test.ts",
      "test/webhooks/**/*.test.ts",
      "test/lib/**/*.test.ts",
      "test/client/**/*.test.ts",
      "test/trigger/**/*.test.ts",
      "test/mock/**/*.test.ts",
      "test/sandbox/**/*.test.ts",
      "test/build/package-root.test.ts",
    ],
    // The browser adds seconds to every run and sees nothing the page's HTTP tests do not.
    exclude: ["test/sandbox/page.browser.test.ts"],
    // The contract suite runs against a sandbox that each file starts in its own worker.
    env: { PAYIN_SANDBOX_IN_WORKER: "1" },
    // As in every run: nothing a test starts may leave loopback (the global setup only reports,
    // under Stryker, what a mutant tried: the test file that saw it has failed already).
    globalSetup: ["test/support/loopback-global-setup.ts"],
    setupFiles: ["test/support/loopback-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
