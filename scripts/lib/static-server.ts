// A static file server that serves one folder under a sub-path, as a static host serving the
// site from a folder would: anything outside the prefix is a 404, so a root-relative link or
// asset in the site shows up as a failed request.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticServer {
  /** The site's URL, ending in the prefix (`http://127.0.0.1:PORT/payin/docs/`). */
  url: string;
  /** Paths asked for that the server could not answer with a file. */
  notFound: string[];
  close(): Promise<void>;
}

/**
 * Serves `dir` under `prefix`. `answers` replaces files by name with what this server knows
 * (`npm start` tells the docs where its sandbox is in `try-it.json`).
 */
export async function serveStatic(dir: string, prefix: string, port = 0, answers: Record<string, string> = {}): Promise<StaticServer> {
  const notFound: string[] = [];
  const server: Server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    const relative = pathname.startsWith(prefix) ? decodeURIComponent(pathname.slice(prefix.length)) : undefined;
    const answer = relative === undefined ? undefined : answers[relative];
    if (answer !== undefined) {
      res.writeHead(200, { "Content-Type": types[path.extname(relative!)] ?? "application/octet-stream" }).end(answer);
      return;
    }
    let file = relative === undefined ? undefined : path.join(dir, relative || "index.html");
    if (file && existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!file || !file.startsWith(dir + path.sep) || !existsSync(file)) {
      notFound.push(pathname);
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`,
    notFound,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
