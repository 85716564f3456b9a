// The tests Stryker runs against each mutant of src/webhooks/ (`npm run test:mutation:webhooks`):
// only those whose subject is the webhook toolkit. The sandbox, contract and conformance suites
// also reach signWebhook and verifyWebhook, but as a means, not as what they hold; run for every
// mutant they made the run 30 to 50 minutes where these take minutes, and what they would kill
// here these kill too (the score is measured without them). test/testing/fixtures.test.ts is in:
// it holds that verifyWebhook refuses each delivery a handler must refuse, for its own reason.
import { defineConfig } from "vitest/config";
import mutation from "./vitest.mutation.config.ts";

export default defineConfig({
  test: {
    include: ["test/webhooks/**/*.test.ts", "test/testing/fixtures.test.ts"],
    // As in every run: nothing a test starts may leave loopback.
    globalSetup: mutation.test!.globalSetup,
    setupFiles: mutation.test!.setupFiles,
    // One worker that keeps its modules between files: each mutant reruns a few fast tests, and starting over is most of the cost.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
