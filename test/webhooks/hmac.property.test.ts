// The HMAC the toolkit signs and verifies with, and the comparison it uses, held to node:crypto's
// createHmac and to plain string equality on any input (fast-check), not on one example: on
// Node, and on runtimes without node:crypto, where it takes WebCrypto.
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { base64ToBytes, bytesToBase64 } from "../../src/webhooks/base64.ts";
import { constantTimeEqual } from "../../src/webhooks/constant-time.ts";
import { hmacSha256 } from "../../src/webhooks/hmac.ts";
import { RUNTIMES, WITHOUT_NODE_CRYPTO } from "./runtime.ts";

const SETTINGS = { numRuns: 200, seed: 20261122 };
// Keys up to two SHA-256 blocks long, so that keys longer than a block (hashed first) are tried.
const key = fc.uint8Array({ minLength: 1, maxLength: 130 });
const part = fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.uint8Array({ maxLength: 300 }));
const parts = fc.array(part, { maxLength: 3 });

const reference = (k: Uint8Array, ps: ReadonlyArray<string | Uint8Array>) => {
  const hmac = createHmac("sha256", k);
  for (const p of ps) hmac.update(p);
  return hmac.digest("base64");
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("HMAC-SHA256", () => {
  it.each(RUNTIMES)("on %s, equals createHmac on any key and message", async (_, run) => {
    await fc.assert(
      fc.asyncProperty(key, parts, async (k, ps) => {
        expect(await run(() => hmacSha256(k, ps))).toBe(reference(k, ps));
      }),
      SETTINGS,
    );
  });

  it.each(RUNTIMES)("on %s, keys of 63, 64, 65 and 128 bytes, around the block size where longer keys are hashed first", async (_, run) => {
    for (const size of [63, 64, 65, 128]) {
      const k = new Uint8Array(size).map((_, i) => i * 7);
      expect(await run(() => hmacSha256(k, ["m"]))).toBe(reference(k, ["m"]));
    }
  });

  it.each(RUNTIMES)("on %s, a 100 KB body and strings far from ASCII sign alike", async (_, run) => {
    const k = new Uint8Array([9]);
    for (const body of [new Uint8Array(100_000).fill(0x61), "é".repeat(10_000), "€".repeat(6_000), "😀".repeat(5_000)])
      expect(await run(() => hmacSha256(k, ["id.", body]))).toBe(reference(k, ["id.", body]));
  });

  it("signs through node:crypto where the runtime has it, and through WebCrypto where it has not", async () => {
    const webCrypto = vi.spyOn(crypto.subtle, "sign");
    const k = new Uint8Array([1, 2, 3]);
    expect(await hmacSha256(k, ["m"])).toBe(reference(k, ["m"]));
    // WebCrypto on Node signs on a worker thread, far slower: the benchmark's goal needs node:crypto.
    expect(webCrypto).not.toHaveBeenCalled();
    for (const [, run] of WITHOUT_NODE_CRYPTO) expect(await run(() => hmacSha256(k, ["m"]))).toBe(reference(k, ["m"]));
    expect(webCrypto).toHaveBeenCalledTimes(WITHOUT_NODE_CRYPTO.length);
  });
});

describe("constantTimeEqual", () => {
  it("is string equality on any two strings, prefixes and equal lengths included", () => {
    const pair = fc.oneof(
      fc.tuple(fc.string(), fc.string()),
      fc.string().map((s) => [s, s] as const),
      fc.tuple(fc.string({ minLength: 1 }), fc.nat()).map(([s, n]) => [s, s.slice(0, n % s.length)] as const),
      fc.tuple(fc.string({ minLength: 1 }), fc.nat(), fc.integer({ min: 1, max: 0xffff })).map(([s, n, flip]) => {
        const i = n % s.length;
        return [s, s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ flip) + s.slice(i + 1)] as const;
      }),
    );
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(b, a)).toBe(a === b);
      }),
      { numRuns: 500, seed: 20261122 },
    );
  });
});

describe("base64", () => {
  it("decodes what Buffer encodes, byte for byte, and encodes as Buffer does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = Buffer.from(bytes).toString("base64");
        expect(base64ToBytes(text)).toEqual(bytes);
        expect(bytesToBase64(bytes)).toBe(text);
      }),
      SETTINGS,
    );
  });

  it.each([
    ["a character outside the alphabet", "abc!"],
    ["a space", "ab c"],
    ["URL-safe base64", "ab-_"],
    ["padding in the middle", "a=bc"],
    ["three padding characters", "a==="],
    ["a length that is not a multiple of 4", "abcde"],
    ["a bad character first", "!abc"],
    ["a bad character last", "abc!"],
  ])("refuses %s (%j)", (_, text) => {
    expect(base64ToBytes(text)).toBeUndefined();
  });
});
