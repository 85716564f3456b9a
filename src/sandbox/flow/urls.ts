// The sandbox's rules for URLs (decisions D18 and D21): the contract's https:// waived for
// loopback http://, where a test's shop and receiver listen; URLs no client could reach
// refused; which hosts deliveries may go to; and the public URL its links start with.
import type { ValidationError } from "../../../generated/event-validators.js";
import type { ProblemFieldError as FieldError } from "../../lib/problem.ts";

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** A URL's hostname (as `URL` gives it) that names this machine's loopback interface. */
export const isLoopbackHost = (hostname: string) => LOOPBACK_HOSTS.test(hostname);

export function isLoopbackHttpUrl(value: unknown): boolean {
  const url = URL.parse(String(value));
  return url?.protocol === "http:" && isLoopbackHost(url.hostname);
}

/** What the sandbox says of a URL in one of these fields that it refuses for its scheme. */
export const HTTPS_OR_LOOPBACK_HTTP =
  "must be an https:// URL; the sandbox also accepts loopback http:// URLs (localhost, 127.0.0.0/8, [::1]), " +
  "but every other host needs https://";

/** The field of `fields` whose `^https://` pattern the error is about, if any. */
const httpsPatternField = (error: ValidationError, fields: readonly string[]) =>
  error.keyword === "pattern" ? fields.find((field) => error.instancePath === `/${field}`) : undefined;

/**
 * The contract's `^https://` for `fields` of a body, as the sandbox applies it: waived for
 * loopback http:// URLs, and any other URL refused for its scheme told the rule.
 */
export const loopbackHttpRule = (...fields: string[]) => ({
  waive: (error: ValidationError, body: any): boolean => {
    const field = httpsPatternField(error, fields);
    return field !== undefined && isLoopbackHttpUrl(body?.[field]);
  },
  explain: (error: ValidationError): string | undefined =>
    httpsPatternField(error, fields) === undefined ? undefined : HTTPS_OR_LOOPBACK_HTTP,
});

/**
 * An error for each of `fields` whose URL, valid for `format: uri`, no client could reach: a
 * port past 65535 or 0, an IPv4 address out of range, a broken IPv6 one. WHATWG's parser,
 * which every HTTP client here uses, decides.
 */
export function unreachableUrls(body: any, ...fields: string[]): FieldError[] {
  return fields.flatMap((field) => {
    const value = body?.[field];
    if (typeof value !== "string") return [];
    const url = URL.parse(value);
    return url && url.port !== "0" ? [] : [{ field, message: "must be a URL with a host and port (1-65535) a client can reach" }];
  });
}

/** Where the payment page of each session is served: its payment_link is this under the sandbox's origin. */
export const PAGE_PREFIX = "/pay/";

/** A session's payment_link: its page under the sandbox's origin. */
export const paymentLink = (origin: string, sessionId: string) => `${origin}${PAGE_PREFIX}${sessionId}`;

/** A public URL as the base of the links the sandbox makes, or an error that names `option`. */
export function linkBase(value: string, option: string): string {
  const url = URL.parse(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash)
    throw new Error(`${option} must be an http:// or https:// URL without credentials, query or fragment, not ${JSON.stringify(value)}`);
  return url.href.replace(/\/+$/, "");
}
