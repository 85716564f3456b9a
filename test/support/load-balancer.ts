// A load balancer's stand-in for the tests: a TCP proxy on loopback that sends each new
// connection to the next of its upstreams in turn, and can cut every connection it carries, or
// answer the next ones itself: `502 Bad Gateway`, as one does while its upstreams restart, or
// `503 Service Unavailable`, as one does with no healthy upstream.
import { connect, createServer, type Socket } from "node:net";

export interface LoadBalancer {
  url: string;
  /** Cuts every connection it carries now. */
  dropAll(): void;
  /** The next `count` connections get a 502 from the balancer, reaching no upstream. */
  badGateway(count: number): void;
  /** The next `count` connections get a 503 from the balancer, reaching no upstream. */
  unavailable(count: number): void;
  close(): Promise<void>;
}

export async function startLoadBalancer(upstreams: string[]): Promise<LoadBalancer> {
  const sockets = new Set<Socket>();
  let next = 0;
  /** The status lines the next connections get from the balancer itself, in turn. */
  const refusals: string[] = [];
  const server = createServer((client) => {
    sockets.add(client);
    client.once("close", () => sockets.delete(client));
    client.on("error", () => {});
    const refusal = refusals.shift();
    if (refusal) {
      client.end(`HTTP/1.1 ${refusal}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
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
    badGateway: (count) => void refusals.push(...Array<string>(count).fill("502 Bad Gateway")),
    unavailable: (count) => void refusals.push(...Array<string>(count).fill("503 Service Unavailable")),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
