import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  // The example merchant (examples/merchant/) imports the package by name; its tests run it
  // against this source tree, as tsconfig.json's "paths" type-check it.
  resolve: {
    alias: [
      { find: /^payin-acceptance-contract$/, replacement: source("./src/index.ts") },
      { find: /^payin-acceptance-contract\/webhooks$/, replacement: source("./src/webhooks/index.ts") },
    ],
  },
  test: {
    // Lint, build and mock tests start CLIs that take seconds on two cores.
    testTimeout: 60_000,
    // Two files at a time, not Vitest's default of one on two cores: most of the slow files wait on
    // processes they start (npm, tsc, Chromium, bins), so two overlap (4m40s alone, 3m10s so).
    maxWorkers: 2,
    hookTimeout: 90_000,
    // Nothing the suite starts may leave loopback: the global setup preloads the loopback guard
    // into every worker and every process they start, and fails the run on any refusal in its
    // log; the setup file fails a test file whose own process reached for a host outside loopback.
    globalSetup: ["test/support/loopback-global-setup.ts"],
    setupFiles: ["test/support/loopback-setup.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/contract/**", "test/package/**"] } },
      {
        extends: true,
        test: {
          name: "package",
          include: ["test/package/**/*.test.ts"],
          // Packs the package and installs it into a fresh project once, for every file of these tests.
          globalSetup: ["test/package/support/install.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "contract",
          include: ["test/contract/**/*.test.ts"],
          // Starts the mock once for every contract file, unless PAYIN_BASE_URL names a server.
          globalSetup: ["test/contract/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "contract-sandbox",
          include: ["test/contract/**/*.test.ts"],
          // The same suite against the stateful sandbox, which it starts once in process.
          globalSetup: ["test/contract/support/global-setup.ts"],
        },
      },
    ],
  },
});
