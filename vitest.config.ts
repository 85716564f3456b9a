import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Lint, build and mock tests start CLIs that take seconds on two cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
