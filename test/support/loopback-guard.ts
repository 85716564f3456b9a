// Tests stay on loopback: nothing a test starts (the sandbox's dispatcher above all) may look
// up or connect to a host outside 127.0.0.0/8 and ::1. The guard refuses such a connection or
// look-up at once, without touching the network, and remembers it; the run then fails, in
// each test file (setup file) and in the process that runs the global setups.
import dns from "node:dns";
import net from "node:net";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(\.\d{1,3}){3})$/i;
// The one host outside loopback a run may reach: the server someone points the contract suite at.
const given = URL.parse(process.env.PAYIN_BASE_URL ?? "")?.hostname.replace(/^\[|\]$/g, "");
const mayReach = (host: string) => LOOPBACK.test(host) || host === given;

/** Every host something tried to reach outside loopback, in order. */
export const outsideLoopback: string[] = [];

const refusal = (host: string) => Object.assign(new Error(`the loopback guard refused ${host}: tests stay on loopback`), { code: "ECONNREFUSED" });

let installed = false;

export function installLoopbackGuard() {
  if (installed) return;
  installed = true;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: any[]) {
    // net.connect hands over its arguments already normalised, as [options, callback].
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const host = typeof first === "object" && first !== null ? (first.path ? undefined : (first.host ?? "localhost")) : typeof args[1] === "string" ? args[1] : "localhost";
    if (host === undefined || mayReach(String(host))) return connect.apply(this, args as never);
    outsideLoopback.push(String(host));
    process.nextTick(() => this.destroy(refusal(String(host))));
    return this;
  } as typeof connect;

  const lookup = dns.lookup;
  dns.lookup = function (hostname: string, ...rest: any[]) {
    if (mayReach(hostname)) return lookup.call(dns, hostname, ...(rest as [any]));
    outsideLoopback.push(hostname);
    const callback = rest[rest.length - 1];
    process.nextTick(() => callback(Object.assign(refusal(hostname), { code: "ENOTFOUND" })));
    return {} as never;
  } as typeof lookup;
  const lookupPromise = dns.promises.lookup;
  dns.promises.lookup = ((hostname: string, options?: any) => {
    if (mayReach(hostname)) return lookupPromise.apply(dns.promises, [hostname, options] as never);
    outsideLoopback.push(hostname);
    return Promise.reject(Object.assign(refusal(hostname), { code: "ENOTFOUND" }));
  }) as typeof lookupPromise;
}

/** Throws when anything tried to leave loopback since the guard was installed. */
export function assertStayedOnLoopback(where: string) {
  if (outsideLoopback.length > 0)
    throw new Error(`${where} tried to reach ${outsideLoopback.length} host(s) outside loopback: ${[...new Set(outsideLoopback)].join(", ")}`);
}
