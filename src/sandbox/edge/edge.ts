// What every part of the HTTP edge is handed: the runtime it calls, and how HTTP is read and
// answered here (who the client is behind a load balancer, whether the sandbox is reached over
// https).
import type { IncomingMessage } from "node:http";
import { inNetworks, networkList } from "../../lib/networks.ts";
import type { SandboxOptions } from "../runtime/options.ts";
import type { Runtime } from "../runtime/runtime.ts";

export interface Edge {
  runtime: Runtime;
  /** The address a request is counted against: the client's, seen through the proxies trusted. */
  client(req: IncomingMessage): string;
  /** Whether the sandbox is reached over https (its public URL): its cookies are then sent over https only. */
  secure: boolean;
}

export function edgeOf(runtime: Runtime, options: SandboxOptions): Edge {
  const trusted = networkList(options.trustedProxies ?? [], "trusted-proxy");
  // Without a balancer trusted, the socket's address is the client: no address check at every request of a local run.
  const trusting = (options.trustedProxies?.length ?? 0) > 0;
  return {
    runtime,
    client(req) {
      const socket = req.socket.remoteAddress ?? "";
      if (!trusting || !inNetworks(trusted, socket)) return socket;
      // The nearest hop the trusted proxies did not add is the client: the ones before it may be anything the client sent.
      const forwarded = String(req.headers["x-forwarded-for"] ?? "")
        .split(",")
        .map((hop) => hop.trim())
        .filter(Boolean);
      return forwarded.reverse().find((hop) => !inNetworks(trusted, hop)) ?? socket;
    },
    secure: options.publicUrl?.startsWith("https:") ?? false,
  };
}
