// Binding a server (node:http, or node:https), shared by the mock, the sandbox and the kit's receivers.
import type { Server } from "node:net";

/** The port asked for is taken: another server (another sandbox or mock?) listens there. */
export class PortTaken extends Error {
  override readonly name = "PortTaken";
  /** Node's code for it, as the error it stands for has. */
  readonly code = "EADDRINUSE";
  readonly port: number;
  readonly host: string;

  constructor(port: number, host: string, options?: ErrorOptions) {
    super(`Port ${port} on ${host} is taken by another process (EADDRINUSE); pick another port, or 0 for any free one.`, options);
    this.port = port;
    this.host = host;
  }
}

/** Listens on `port` (0: a free one the system picks) and resolves to the port bound; rejects with `PortTaken` when it is taken. */
export function bindPort(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new PortTaken(port, host, { cause: error }) : error),
    );
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

/**
 * What a command says when its port is taken, with how to pick another in its own terms:
 * `choose("N")` is `--port N` for a bin, `PORT=N` for `npm start`.
 */
export const portTakenLine = ({ port, host }: { port: number; host: string }, choose: (port: string) => string) =>
  `port ${port} on ${host} is taken by another process; pick another with ${choose("N")}, or ${choose("0")} for any free port`;
