// The amount rule (D2) over currencies and amounts: an amount with no more decimals than its
// currency's minor units passes, one decimal more refuses, and the table is the contract's own.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currencyMinorUnits } from "../../generated/sandbox-requests.js";
import { amountError, decimalsOf, minorUnitsFor, minorUnitsOf } from "../../src/lib/amount.ts";
import { openapiBundle } from "../support/documents.ts";

const table = minorUnitsOf(openapiBundle);
/** Listed currencies (0, 3 and 4 decimals) and a few that have the default two. */
const currency = fc.constantFrom(...Object.keys(table), "EUR", "USD", "GBP", "CHF", "XYZ");
/** A whole number of minor units, up to the contract's maximum of 10^12 major units. */
const minor = (units: number) => fc.integer({ min: 1, max: Math.min(Number.MAX_SAFE_INTEGER, 1e12 * 10 ** units) });

describe("the amount rule", () => {
  it("takes its table from the contract, as the sandbox's generated module has it", () => {
    expect(currencyMinorUnits).toEqual(table);
    expect(table).toMatchObject({ JPY: 0, KWD: 3, CLF: 4 });
    expect(Object.values(table)).not.toContain(2);
    expect(() => minorUnitsOf({ components: { schemas: { Currency: {} } } })).toThrow("no x-minor-units table");
  });

  it("accepts any amount with no more decimals than its currency's minor units", () => {
    const withinUnits = currency.chain((code) => {
      const units = minorUnitsFor(code, table);
      return fc.tuple(fc.constant(code), minor(units), fc.integer({ min: 0, max: units }));
    });
    fc.assert(
      fc.property(withinUnits, ([code, n, decimals]) => {
        const amount = n / 10 ** decimals;
        expect(amountError({ amount, currency: code }, table), `${amount} ${code}`).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses any amount with one decimal more, naming amount and the currency", () => {
    fc.assert(
      fc.property(currency, fc.integer({ min: 0, max: 1e10 }), fc.integer({ min: 1, max: 9 }), (code, whole, last) => {
        const units = minorUnitsFor(code, table);
        const amount = (whole * 10 + last) / 10 ** (units + 1);
        const error = amountError({ amount, currency: code }, table);
        expect(error, `${amount} ${code}`).toMatchObject({ field: "amount", message: expect.stringContaining(code) });
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    [49.99, 2],
    [49.999, 3],
    [0.30000000000000004, 17],
    [1e-7, 7],
    [1.5e-7, 8],
    [5e-324, 324],
    [10, 0],
    [1e21, 0],
  ])("counts the decimals of %s in its shortest form: %i", (n, decimals) => {
    expect(decimalsOf(n)).toBe(decimalsOf(Number(String(n))));
    expect(decimalsOf(n)).toBe(decimals);
  });

  it("says what a currency with no minor units takes, and leaves mistyped fields to the schema", () => {
    expect(amountError({ amount: 10.5, currency: "JPY" }, table)?.message).toBe("must be a whole number: JPY has no minor units");
    expect(amountError({ amount: 1.2345, currency: "KWD" }, table)?.message).toBe("must have at most 3 decimals: the minor units of KWD");
    for (const body of [null, "x", { amount: "1.234", currency: "EUR" }, { amount: 1.234 }, { amount: 1.234, currency: 3 }])
      expect(amountError(body, table)).toBeUndefined();
    expect(minorUnitsFor("constructor", table)).toBe(2);
  });
});

describe("the table's source", () => {
  it("must be an object on the Currency schema", () => {
    for (const openapi of [
      {},
      { components: {} },
      { components: { schemas: {} } },
      { components: { schemas: { Currency: { "x-minor-units": "JPY:0" } } } },
    ])
      expect(() => minorUnitsOf(openapi), JSON.stringify(openapi)).toThrow(
        "The OpenAPI document's Currency schema has no x-minor-units table.",
      );
  });
});
