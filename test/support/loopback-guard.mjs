// Tests stay on loopback: nothing a test starts (the sandbox's dispatcher, a CLI's telemetry, an
// update check) may look up or connect to a host outside 127.0.0.0/8 and ::1. This guard refuses
// such a look-up or connection at once, without touching the network, and records it.
//
// Plain JavaScript, so that any Node the suite starts (20, 22, 24) can preload it:
//   NODE_OPTIONS="--import=file:///…/test/support/loopback-guard.mjs"
// (and from there into the process's worker threads, below).
// Imported, it installs itself; the global setup (loopback-global-setup.ts) puts it in every
// worker's and every child's NODE_OPTIONS, and each test file's setup imports it too.
//
// Every refusal is kept in this process (`outsideLoopback`, which the setup file checks after
// each test file) and, when PAYIN_LOOPBACK_LOG names a file, appended to it as one line
//   pid <TAB> id <TAB> process <TAB> kind <TAB> host <TAB> where
// so that the process that started the run can tell what every child did. A test that provokes
// refusals on purpose empties `outsideLoopback` (`outsideLoopback.length = 0`) once it has
// checked them: that appends an "acknowledged" line for each, and the run's check skips them.
import dns from "node:dns";
import { appendFileSync } from "node:fs";
import net from "node:net";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import workerThreads from "node:worker_threads";

/** The environment variable that names the log every guarded process appends to. */
export const LOG_VARIABLE = "PAYIN_LOOPBACK_LOG";
const WHERE_VARIABLE = "PAYIN_LOOPBACK_WHERE";

const LOOPBACK_NAME = /^localhost\.?$/i;

/** Whether `host` (a name or an address, IPv6 with or without brackets) is loopback. */
export function isLoopback(host) {
  const bare = String(host).replace(/^\[|\]$/g, "");
  if (LOOPBACK_NAME.test(bare)) return true;
  if (net.isIPv4(bare)) return bare.startsWith("127.");
  if (net.isIPv6(bare)) {
    // One spelling for every form: 0:0:0:0:0:0:0:1, ::ffff:127.0.0.1, ::ffff:7f00:1.
    const normal = new URL(`http://[${bare}]/`).hostname.slice(1, -1).toLowerCase();
    if (normal === "::1") return true;
    const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(normal);
    return mapped !== null && parseInt(mapped[1], 16) >> 8 === 127;
  }
  return false;
}

// One guard per process, however many copies of this module are loaded (Node's preload and
// Vitest's module runner each evaluate it once): they share this state, found on globalThis.
const KEY = Symbol.for("payin.loopbackGuard");
const state = (globalThis[KEY] ??= {
  installed: false,
  // A refusal's id in the log: this process's token (pids get reused in a long run) and a count.
  token: Math.random().toString(36).slice(2, 10),
  count: 0,
  hosts: [],
  ids: [],
  // What the process is doing: set by the setup file (the test file), inherited by its children.
  where: process.env[WHERE_VARIABLE] ?? "",
  list: undefined,
});

/** The name a log line gives this process: argv[1]'s base name, and its package when under node_modules. */
function processName() {
  const script = process.argv[1];
  if (!script) return `${path.basename(process.execPath)}${process.execArgv.some((a) => /^(-e|-p|--eval|--print)$/.test(a)) ? " -e" : ""}`;
  const name = path.basename(script);
  const parts = script.split(path.sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length || parts[at + 1] === ".bin") return name;
  const pkg = parts[at + 1].startsWith("@") ? parts.slice(at + 1, at + 3).join("/") : parts[at + 1];
  return `${name} (${pkg})`;
}

const clean = (text) => String(text).replace(/[\t\n\r]/g, " ");

function log(fields) {
  const file = process.env[LOG_VARIABLE];
  if (!file) return;
  try {
    appendFileSync(file, `${fields.map(clean).join("\t")}\n`);
  } catch (error) {
    process.emitWarning(`the loopback guard could not write to ${file}: ${error.message}`);
  }
}

function record(host, kind) {
  const id = `${state.token}.${++state.count}`;
  state.hosts.push(String(host));
  state.ids.push(id);
  log([process.pid, id, processName(), kind, host, state.where]);
}

/**
 * Every host something in this process tried to reach outside loopback, in order. Emptying it
 * (`length = 0`) says the test expected them: the log is told, and the run's check skips them.
 */
export const outsideLoopback = (state.list ??= new Proxy(state.hosts, {
  set(target, key, value) {
    if (key === "length" && value < target.length) {
      for (const [i, id] of state.ids.splice(value).entries())
        log([process.pid, id, processName(), "acknowledged", target[value + i], state.where]);
    }
    return Reflect.set(target, key, value);
  },
}));

/** Says in each log line of this process and of the ones it starts what it is doing (the setup file: the test file). */
export function setLoopbackWhere(where) {
  state.where = String(where ?? "");
  process.env[WHERE_VARIABLE] = state.where;
}

function refusal(host, code) {
  const error = new Error(`the loopback guard refused ${host}: tests stay on loopback`);
  return Object.assign(error, { code, hostname: String(host) });
}

// The one host outside loopback a run may reach: the server someone points the contract suite at.
function mayReach(host) {
  if (isLoopback(host)) return true;
  const given = baseUrlHost();
  return (
    given !== undefined &&
    String(host)
      .toLowerCase()
      .replace(/^\[|\]$/g, "") === given
  );
}

// Read at each call: a test may start a child with another PAYIN_BASE_URL. (URL.parse is Node 22.1+.)
function baseUrlHost() {
  if (!process.env.PAYIN_BASE_URL) return undefined;
  try {
    return new URL(process.env.PAYIN_BASE_URL).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

/** The host a call of Socket.prototype.connect is for, or undefined for a Unix socket or pipe. */
function connectHost(args) {
  // net.connect and tls.connect hand over their arguments already normalised, as [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === "object" && first !== null) return first.path ? undefined : (first.host ?? "localhost");
  if (typeof first === "string" && !/^\d+$/.test(first)) return undefined; // connect(path, cb)
  return typeof args[1] === "string" ? args[1] : "localhost";
}

function guardConnect() {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const host = connectHost(args);
    if (host === undefined || mayReach(host)) return connect.apply(this, args);
    record(host, "connect");
    process.nextTick(() => this.destroy(refusal(host, "ECONNREFUSED")));
    return this;
  };
}

function guardLookup() {
  const lookup = dns.lookup;
  dns.lookup = function guardedLookup(hostname, ...rest) {
    if (mayReach(hostname)) return lookup.call(this, hostname, ...rest);
    record(hostname, "lookup");
    const callback = rest[rest.length - 1];
    if (typeof callback !== "function") throw refusal(hostname, "ENOTFOUND");
    process.nextTick(() => callback(refusal(hostname, "ENOTFOUND")));
    return {};
  };
  const lookupPromise = dns.promises.lookup;
  dns.promises.lookup = function guardedLookup(hostname, ...rest) {
    if (mayReach(hostname)) return lookupPromise.call(this, hostname, ...rest);
    record(hostname, "lookup");
    return Promise.reject(refusal(hostname, "ENOTFOUND"));
  };
}

// resolve*, reverse, lookupService: the module's functions are bound copies of a default Resolver's methods
// (dns.setServers binds them anew from the prototype), so both are patched.
const RESOLVE = /^(resolve\w*|reverse|lookupService)$/;

/**
 * Resolvers a test pointed at DNS servers of its own on loopback with setServers: they may ask
 * about any name, as the question goes nowhere else. Not a resolver whose servers are the
 * system's, even on loopback: such a server (a local cache) asks the network in turn.
 */
const askingLoopback = new WeakSet();

/** The host of a server as setServers takes it: `127.0.0.1`, `127.0.0.1:5353`, `::1`, `[::1]:53`. */
const serverHost = (server) => (net.isIP(server) ? server : (/^\[(.*)\](:\d+)?$/.exec(server)?.[1] ?? server.replace(/:\d+$/, "")));

function guardSetServers() {
  for (const prototype of [dns.Resolver.prototype, dns.promises.Resolver.prototype]) {
    const setServers = prototype.setServers;
    prototype.setServers = function guardedSetServers(servers) {
      setServers.call(this, servers);
      if (servers.length > 0 && servers.every((server) => isLoopback(serverHost(String(server))))) askingLoopback.add(this);
      else askingLoopback.delete(this);
    };
  }
}

function guardResolvers() {
  const callbackForm = (original, kind) =>
    function guardedResolve(name, ...rest) {
      if (mayReach(name) || askingLoopback.has(this)) return original.call(this, name, ...rest);
      record(name, kind);
      const callback = rest[rest.length - 1];
      if (typeof callback !== "function") throw refusal(name, "ENOTFOUND");
      process.nextTick(() => callback(refusal(name, "ENOTFOUND")));
      return {};
    };
  const promiseForm = (original, kind) =>
    function guardedResolve(name, ...rest) {
      if (mayReach(name) || askingLoopback.has(this)) return original.call(this, name, ...rest);
      record(name, kind);
      return Promise.reject(refusal(name, "ENOTFOUND"));
    };
  const patch = (target, form) => {
    for (const key of Object.getOwnPropertyNames(target))
      if (RESOLVE.test(key) && typeof target[key] === "function") target[key] = form(target[key], key);
  };
  patch(dns.Resolver.prototype, callbackForm);
  patch(dns, callbackForm);
  patch(dns.promises.Resolver.prototype, promiseForm);
  patch(dns.promises, promiseForm);
}

// Node runs --import preloads in the main thread only, --require ones in every worker thread
// too: each Worker this process starts requires this file first, where Node can require an ES
// module (20.19, 22.12 and later). Elsewhere worker threads go unguarded.
const SELF = fileURLToPath(import.meta.url);

function guardWorkers() {
  if (!process.features.require_module) return;
  const Original = workerThreads.Worker;
  workerThreads.Worker = class Worker extends Original {
    constructor(filename, options = {}) {
      const execArgv = options.execArgv ?? process.execArgv;
      if (execArgv.includes(SELF)) {
        super(filename, options);
        return;
      }
      try {
        super(filename, { ...options, execArgv: [...execArgv, "--require", SELF] });
      } catch (error) {
        // An option the parent took but a worker may not be given outright: start it as asked.
        if (error?.code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
        super(filename, options);
      }
    }
  };
}

/** Installs the guard in this process (once, whoever asks). */
export function installLoopbackGuard() {
  if (state.installed) return;
  state.installed = true;
  guardConnect();
  guardLookup();
  guardResolvers();
  guardSetServers();
  guardWorkers();
  // `import { lookup } from "node:dns"` (or { Worker } from "node:worker_threads") reads them as they are now.
  syncBuiltinESMExports();
}

/** Throws when anything in this process tried to leave loopback and no test acknowledged it. */
export function assertStayedOnLoopback(where) {
  if (outsideLoopback.length > 0)
    throw new Error(
      `${where} tried to reach ${outsideLoopback.length} host(s) outside loopback: ${[...new Set(outsideLoopback)].join(", ")}`,
    );
}

/** The refusals a log's text holds that no test acknowledged: which process (pid, argv[1]'s name) tried to reach which host, how. */
export function readLoopbackLog(text) {
  const acknowledged = new Set();
  const entries = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [pid, id, name, kind, host, where = ""] = line.split("\t");
    if (kind === "acknowledged") acknowledged.add(id);
    else entries.push({ pid: Number(pid), id, process: name, kind, host, where });
  }
  return entries.filter((e) => !acknowledged.has(e.id));
}

/** The report of unacknowledged refusals, one line per process and host (empty when none). */
export function describeLoopbackLog(entries) {
  const lines = new Map();
  for (const e of entries) {
    const key = `${e.process}${e.where ? ` [${e.where}]` : ""} → ${e.host} (${e.kind})`;
    const seen = lines.get(key) ?? { count: 0, pids: new Set() };
    seen.count++;
    seen.pids.add(e.pid);
    lines.set(key, seen);
  }
  return [...lines].map(([key, { count, pids }]) => `  ${key}: ${count} time(s), pid ${[...pids].join(", ")}`).join("\n");
}

installLoopbackGuard();
