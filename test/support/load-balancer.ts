// A load balancer's stand-in for the tests: a TCP proxy on loopback that sends each new
// connection to the next of its upstreams in turn, and can cut every connection it carries, or
// answer the next ones `502 Bad Gateway` itself, as one does while its upstreams restart.
import { connect, createServer, type Socket } from "node:net";

export interface LoadBalancer {
  url: string;
  /** Cuts every connection it carries now. */
  dropAll(): void;
  /** The next `count` connections get a 502 from the balancer, reaching no upstream. */
  badGateway(count: number): void;
  close(): Promise<void>;
}

export async function startLoadBalancer(upstreams: string[]): Promise<LoadBalancer> {
  const sockets = new Set<Socket>();
  let next = 0;
  let failing = 0;
  const server = createServer((client) => {
    sockets.add(client);
    client.once("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (failing > 0) {
      failing--;
      client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    const target = new URL(upstreams[next++ % upstreams.length]!);
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.once("close", () => (sockets.delete(upstream), client.destroy()));
    client.once("close", () => upstream.destroy());
    upstream.on("error", () => {});
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    dropAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    badGateway: (count) => void (failing = count),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
