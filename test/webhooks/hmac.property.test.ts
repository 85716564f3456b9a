// Every HMAC path the verifier may take, and the comparison it uses, held to node:crypto's
// createHmac and to plain string equality on any input (fast-check), not on one example.
import { createHmac } from "node:crypto";
import * as nodeCrypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64 } from "../../src/webhooks/base64.ts";
import { constantTimeEqual } from "../../src/webhooks/constant-time.ts";
import { defaultHmac } from "../../src/webhooks/hmac.ts";
import { keyObjectHmac, nodeHmac, oneShotHmac } from "../../src/webhooks/hmac-node.ts";
import { webCryptoHmac } from "../../src/webhooks/hmac-webcrypto.ts";

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

describe("HMAC-SHA256", () => {
  const paths = { oneShot: oneShotHmac(nodeCrypto), keyObject: keyObjectHmac(nodeCrypto), webCrypto: webCryptoHmac, default: defaultHmac };

  it.each(Object.entries(paths))("%s equals createHmac on any key and message", async (_, hmac) => {
    await fc.assert(
      fc.asyncProperty(key, parts, async (k, ps) => {
        expect(await hmac.sign(k, ps)).toBe(reference(k, ps));
      }),
      SETTINGS,
    );
  });

  it("one-shot: a message larger than the reused buffer, and one of exactly its size, sign alike", () => {
    const hmac = oneShotHmac(nodeCrypto);
    const k = new Uint8Array([7, 7, 7]);
    for (const size of [16 * 1024 - 64, 16 * 1024 - 63, 100_000]) {
      const body = new Uint8Array(size).fill(0x61);
      expect(hmac.sign(k, [body])).toBe(reference(k, [body]));
      expect(hmac.sign(k, ["a", body])).toBe(reference(k, ["a", body]));
    }
  });

  it.each([63, 64, 65, 128])("every path: a key of %i bytes, around the block size where longer keys are hashed first", async (size) => {
    const k = new Uint8Array(size).map((_, i) => i * 7);
    for (const hmac of Object.values(paths)) expect(await hmac.sign(k, ["m"])).toBe(reference(k, ["m"]));
  });

  it("one-shot: a string past the reused buffer in UTF-8 bytes, though not in characters, signs alike", () => {
    const hmac = oneShotHmac(nodeCrypto);
    const k = new Uint8Array([9]);
    for (const text of ["é".repeat(10_000), "€".repeat(6_000), "😀".repeat(5_000)]) expect(hmac.sign(k, ["id.", text])).toBe(reference(k, ["id.", text]));
  });

  it("one-shot: signing twice with one key, or with two keys in turn, gives each its own answer", () => {
    const hmac = oneShotHmac(nodeCrypto);
    const [a, b] = [new Uint8Array([1]), new Uint8Array([2])];
    for (let i = 0; i < 3; i++) for (const k of [a, b]) expect(hmac.sign(k, ["x"])).toBe(reference(k, ["x"]));
  });

  it("takes the one-shot path where crypto.hash exists, and createHmac where it does not", () => {
    const { hash: _, ...withoutHash } = nodeCrypto;
    const k = new Uint8Array([1, 2, 3]);
    const calls: string[] = [];
    const spy = { ...nodeCrypto, hash: (...args: Parameters<typeof nodeCrypto.hash>) => (calls.push("hash"), nodeCrypto.hash(...args)) };
    expect(nodeHmac(spy as typeof nodeCrypto).sign(k, ["m"])).toBe(reference(k, ["m"]));
    expect(calls).toContain("hash");
    const noHash = { ...withoutHash, createHmac: (...args: Parameters<typeof createHmac>) => (calls.push("createHmac"), createHmac(...args)) };
    expect(nodeHmac(noHash as unknown as typeof nodeCrypto).sign(k, ["m"])).toBe(reference(k, ["m"]));
    expect(calls.at(-1)).toBe("createHmac");
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
