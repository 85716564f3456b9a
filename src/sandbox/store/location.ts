// Where the store is: a SQLite file, or a PostgreSQL URL, named in messages without its password.

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** Where a PostgreSQL URL points, as a message names it: host and port, or the socket folder (`?host=/run/postgresql`). */
export function hostOf(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return "(a URL that does not parse)";
  const socket = parsed.searchParams.get("host");
  if (socket) return socket;
  return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
}
