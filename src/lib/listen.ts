// Binding a node:http server, shared by the mock and the sandbox.
import type { Server } from "node:http";

/** Listens on `port` (0: a free one the system picks) and resolves to the port bound. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}
