// @ts-nocheck
// Property tests: whatever arrives, the verifier answers with an event it was signed for,
// or with a WebhookVerificationError; never anything else, and never an unsigned body.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError } from "../../src/webhooks/index.ts";
import { EXAMPLE_SECRET, exampleEvents } from "../support/events.ts";

const NOW = new Date("2026-11-21T10:24:42Z");
const SECONDS = String(NOW.getTime() / 1000);
const SETTINGS = { numRuns: 300, seed: 20261121 };

const outcome = (p: Promise<unknown>) =>
  p.then(
    (event) => ({ event }),
    (error: unknown) => ({ error }),
  );

const headerValue = fc.oneof(fc.string(), fc.constant(SECONDS), fc.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/));
const headers = fc.dictionary(
  fc.constantFrom("webhook-id", "webhook-timestamp", "webhook-signature", "Webhook-Signature", "content-type", "x-other"),
  headerValue,
);
const body = fc.oneof(
  fc.string(),
  fc.uint8Array({ maxLength: 256 }),
  fc.constantFrom(...exampleEvents.map(([, , e]) => JSON.stringify(e))),
  fc.json(),
);

describe("verifyWebhook on arbitrary input", () => {
  it("throws nothing but WebhookVerificationError, and accepts nothing unsigned", async () => {
    await fc.assert(
      fc.asyncProperty(body, headers, async (payload, hdrs) => {
        const result = await outcome(verifyWebhook(payload, hdrs, EXAMPLE_SECRET, { now: NOW }));
        expect(result).toHaveProperty("error");
        expect((result as { error: unknown }).error).toBeInstanceOf(WebhookVerificationError);
      }),
      SETTINGS,
    );
  });

  it("rejects any change to a signed body, whatever the change", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...exampleEvents.map(([, , e]) => e)),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (event, at, flip) => {
          const bytes = new TextEncoder().encode(JSON.stringify(event));
          const hdrs = await signWebhook({ id: event.id, timestamp: NOW, payload: bytes, secret: EXAMPLE_SECRET });
          const tampered = bytes.slice();
          tampered[at % tampered.length]! ^= flip;
          const result = await outcome(verifyWebhook(tampered, hdrs, EXAMPLE_SECRET, { now: NOW }));
          expect((result as { error: WebhookVerificationError }).error?.code).toBe("invalid_signature");
        },
      ),
      SETTINGS,
    );
  });

  it("rejects a signed body that is not a valid event with a WebhookVerificationError, never a crash", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), async (payload) => {
        const hdrs = await signWebhook({ id: "msg_1", timestamp: NOW, payload, secret: EXAMPLE_SECRET });
        const result = await outcome(verifyWebhook(payload, hdrs, EXAMPLE_SECRET, { now: NOW }));
        expect((result as { error: WebhookVerificationError }).error?.code).toMatch(/^invalid_(payload|event)$/);
      }),
      SETTINGS,
    );
  });
});
