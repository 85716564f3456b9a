// Where the token would cross the network as plain text: an http:// base URL whose host is not
// this machine's loopback (the same hosts the sandbox takes an http:// webhook URL on, D21).
// Anyone between the developer and that host reads the bearer token, and with it the account.

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether `url` is http:// to a host other than loopback. */
export function sendsInClear(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && !LOOPBACK_HOSTS.test(hostname);
}
