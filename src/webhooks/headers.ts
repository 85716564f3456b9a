/** Headers as frameworks hand them over: WHATWG `Headers`, or a plain object in any case. */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The value of a header by its lower-case name, or undefined. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  // Node gives lower-case names; anything else (Express mocks, hand-made objects) may not.
  let value = record[name];
  if (value === undefined) {
    for (const key of Object.keys(record)) if (key.toLowerCase() === name) value = record[key];
  }
  return Array.isArray(value) ? value.join(" ") : (value as string | undefined);
}
