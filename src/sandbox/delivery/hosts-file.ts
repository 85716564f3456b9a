// The hosts file, as getaddrinfo reads it before DNS: an operator names an internal host there
// (a container's alias, a staging endpoint) and expects the sandbox to see the same. Read at each
// look-up, synchronously: a local file of a few lines, which an asynchronous read would take to
// the thread pool that the resolver keeps out of.
import { readFileSync } from "node:fs";
import { isIP } from "node:net";

/** Every address the file gives `hostname` (any case), in its order; none when it has none or cannot be read. */
export function hostsFileAddresses(file: string, hostname: string): Array<{ address: string; family: number }> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const name = hostname.toLowerCase().replace(/\.$/, "");
  const found: Array<{ address: string; family: number }> = [];
  for (const line of text.split("\n")) {
    const [address = "", ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
    const family = isIP(address);
    if (family !== 0 && names.some((n) => n.toLowerCase() === name)) found.push({ address, family });
  }
  return found;
}
