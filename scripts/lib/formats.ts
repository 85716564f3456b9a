// The string formats the generated validators check, bundled into them by standalone-validators.ts:
// ajv-formats' "full" set, with "date-time" replaced by a one-pass check that accepts exactly
// what ajv-formats' does (test/lib/formats.test.ts holds the two equal on generated strings).
// Every event carries a date-time; ajv-formats splits the string and runs two regular
// expressions with captures, which was two thirds of an event's schema validation.
import { fullFormats } from "ajv-formats/dist/formats.js";

const SHAPE = /^\d{4}-\d\d-\d\d[t\s]\d\d:\d\d:\d\d(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const SECONDS_AT = 17;

/** The two decimal digits of `s` at `i`, as a number. */
const twoDigits = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
const isDigit = (code: number) => code >= 48 && code <= 57;
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** RFC 3339 `date-time` (section 5.6), with a leap second allowed only at 23:59 UTC. */
export function isDateTime(s: string): boolean {
  if (!SHAPE.test(s)) return false;
  const year = twoDigits(s, 0) * 100 + twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!)) return false;

  let zone = SECONDS_AT + 2;
  if (s.charCodeAt(zone) === 46 /* . */) while (++zone < s.length && isDigit(s.charCodeAt(zone)));
  // Read as ajv-formats reads it, so that 59.99999999999999999 rounds to 60 the same way.
  const seconds = Number(s.slice(SECONDS_AT, zone));
  let offsetHours = 0;
  let offsetMinutes = 0;
  let sign = 1;
  if (zone + 1 < s.length) {
    sign = s.charCodeAt(zone) === 45 /* - */ ? -1 : 1;
    offsetHours = twoDigits(s, zone + 1);
    if (zone + 3 < s.length) offsetMinutes = twoDigits(s, s.length - 2);
  }
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  const hours = twoDigits(s, 11);
  const minutes = twoDigits(s, 14);
  if (hours <= 23 && minutes <= 59 && seconds < 60) return true;
  // A leap second: 23:59:60 in UTC, whatever the offset.
  const utcMinutes = minutes - offsetMinutes * sign;
  const utcHours = hours - offsetHours * sign - (utcMinutes < 0 ? 1 : 0);
  return (utcHours === 23 || utcHours === -1) && (utcMinutes === 59 || utcMinutes === -1) && seconds < 61;
}

// ajv-formats types its formats loosely (a format may be a RegExp); date-time is an object with a compare.
const { compare } = fullFormats["date-time"] as { compare: (a: string, b: string) => number | undefined };
export const formats = { ...fullFormats, "date-time": { validate: isDateTime, compare } };
