// @ts-nocheck
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Lint, build and mock tests start CLIs that take seconds on two cores.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/contract/**"] } },
      {
        extends: true,
        test: {
          name: "contract",
          include: ["test/contract/**/*.test.ts"],
          // Starts the mock once for every contract file, unless PAYIN_BASE_URL names a server.
          globalSetup: ["test/contract/support/global-setup.ts"],
        },
      },
    ],
  },
});
