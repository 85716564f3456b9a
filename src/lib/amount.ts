// The contract's amount rule (decision D2): an amount has no more decimals than its currency's
// minor units, which the contract itself lists (`x-minor-units` of the `Currency` schema). JSON
// Schema cannot say it (the decimals depend on a sibling field, and a float `multipleOf` refuses
// good amounts), so the sandbox, the mock and the conformance checks all apply this one function.
import type { Json } from "./json.ts";
import type { ProblemFieldError } from "./problem.ts";

/** Minor units by currency code, for the currencies that do not have two. */
export type MinorUnits = Readonly<Record<string, number>>;

/** ISO 4217's usual count, for every currency the contract's table does not list. */
const DEFAULT_MINOR_UNITS = 2;

/** The table of the bundled OpenAPI document's `Currency` schema. */
export function minorUnitsOf(openapi: Json): MinorUnits {
  const table = openapi.components?.schemas?.Currency?.["x-minor-units"];
  if (!table || typeof table !== "object") throw new Error("The OpenAPI document's Currency schema has no x-minor-units table.");
  return table;
}

/**
 * Decimals of a number in its shortest decimal form, the one JSON serialisers write and
 * `String()` gives: 49.99 → 2, 0.30000000000000004 → 17, 1e-7 → 7, 5e-324 → 324.
 */
export function decimalsOf(n: number): number {
  const [digits, exponent] = String(n).split("e");
  const fraction = digits!.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/** Minor units of a currency code; two for any code the table does not list. */
export const minorUnitsFor = (currency: string, table: MinorUnits) =>
  Object.hasOwn(table, currency) ? table[currency]! : DEFAULT_MINOR_UNITS;

/**
 * The field error of a body whose `amount` has more decimals than its `currency` allows;
 * undefined when it keeps the rule, or when either field is missing or mistyped (the schema
 * names those).
 */
export function amountError(body: unknown, table: MinorUnits): ProblemFieldError | undefined {
  const { amount, currency } = (body ?? {}) as { amount?: unknown; currency?: unknown };
  if (typeof amount !== "number" || typeof currency !== "string") return undefined;
  const allowed = minorUnitsFor(currency, table);
  if (decimalsOf(amount) <= allowed) return undefined;
  // No ISO 4217 currency has one minor unit.
  const message =
    allowed === 0
      ? `must be a whole number: ${currency} has no minor units`
      : `must have at most ${allowed} decimals: the minor units of ${currency}`;
  return { field: "amount", message };
}
