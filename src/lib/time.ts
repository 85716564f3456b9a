/** A time in milliseconds as the contract writes it: RFC 3339, UTC. */
export const isoTime = (ms: number) => new Date(ms).toISOString();
