// The generated validators' date-time check (scripts/lib/formats.ts) against ajv-formats' full
// "date-time", which it replaces for speed: the two must accept exactly the same strings.
import fc from "fast-check";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { formats, isDateTime } from "../../scripts/lib/formats.ts";

const reference = (s: string) => (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate(s);

const digits = (n: number) => fc.array(fc.constantFrom(..."0123456789"), { minLength: n, maxLength: n }).map((d) => d.join(""));
const pick = <T>(...values: T[]) => fc.constantFrom(...values);

/** Strings shaped like RFC 3339 date-times, with every field free to be out of range. */
const nearDateTime = fc
  .tuple(
    fc.oneof(digits(4), pick("2024", "2023", "1900", "2000", "2100")),
    fc.oneof(digits(2), pick("00", "01", "02", "12", "13")),
    fc.oneof(digits(2), pick("00", "28", "29", "30", "31", "32")),
    pick("T", "t", " ", "\n", "\u00a0", "x", "TT"),
    fc.oneof(digits(2), pick("00", "23", "24")),
    fc.oneof(digits(2), pick("00", "59", "60")),
    fc.oneof(digits(2), pick("59", "60", "61")),
    fc.oneof(
      pick("", ".", ".5", ".999999", ".99999999999999999999", ".0x"),
      digits(3).map((d) => `.${d}`),
    ),
    fc.oneof(
      pick(
        "Z",
        "z",
        "",
        "+00:00",
        "-00:00",
        "+01:00",
        "-01:00",
        "+23:59",
        "+24:00",
        "-00:60",
        "+0100",
        "+01",
        "+1:00",
        "+01:0",
        "Zz",
        "+01:00Z",
      ),
      fc.tuple(pick("+", "-"), digits(2), pick(":", ""), digits(2)).map((p) => p.join("")),
    ),
    pick("", "", "", " ", "x"),
  )
  .map(([y, mo, d, sep, h, mi, s, frac, zone, tail]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac}${zone}${tail}`);

describe("the generated validators' date-time format", () => {
  it("accepts and rejects what ajv-formats' full date-time does, on strings shaped like one", () => {
    fc.assert(
      fc.property(nearDateTime, (s) => isDateTime(s) === reference(s)),
      { numRuns: 20_000 },
    );
  });

  it("agrees with ajv-formats on any string at all", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => isDateTime(s) === reference(s)),
      { numRuns: 5_000 },
    );
  });

  it("agrees on the cases RFC 3339 singles out", () => {
    const cases = [
      "2024-02-29T12:00:00Z", // a leap day
      "2023-02-29T12:00:00Z", // not a leap year
      "1900-02-29T12:00:00Z", // a century that is not a leap year
      "2000-02-29T12:00:00Z", // one that is
      "2016-12-31T23:59:60Z", // a leap second
      "2016-12-31T15:59:60-08:00", // the same leap second, in another zone
      "2016-12-31T12:59:60Z", // a sixtieth second outside 23:59 UTC
      "2016-12-31T23:59:61Z", // no minute has a sixty-second second
      "2016-12-31T23:59:60.5Z",
      "2025-06-18T14:05:00.123456+02:00",
      "2025-06-18T14:05:59.99999999999999999999Z", // rounds to 60 when read as a number
      "2025-06-18T14:05:00", // no zone
      "2025-06-18 14:05:00z",
      "2025-04-31T00:00:00Z",
    ];
    for (const s of cases) expect(isDateTime(s), s).toBe(reference(s));
    expect(cases.map(isDateTime)).toEqual([true, false, false, true, true, true, false, false, true, true, false, false, true, false]);
  });

  it("keeps every other format ajv-formats' full set has", () => {
    expect(Object.keys(formats).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of Object.keys(fullFormats))
      if (name !== "date-time") expect(formats[name as keyof typeof formats]).toBe(fullFormats[name as keyof typeof fullFormats]);
  });
});
