// Reading requests and writing answers on node:http.
import type { ServerResponse } from "node:http";
import { PROBLEM_CONTENT_TYPE } from "../lib/problem.ts";

export function sendJson(res: ServerResponse, status: number, body: string | undefined, headers: Record<string, string> = {}) {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const type = status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json";
  // A flat list of names and values: the cheapest form of headers for node:http.
  res.writeHead(status, ["Content-Type", type, "Content-Length", String(Buffer.byteLength(body)), ...Object.entries(headers).flat()]);
  res.end(body);
}

/** The bearer token of the request, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}
