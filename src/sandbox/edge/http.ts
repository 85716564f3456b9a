// Reading requests and writing answers on node:http.
import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { problem, PROBLEM_CONTENT_TYPE } from "../../lib/problem.ts";

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

/** A percent-decoded path segment, or the segment as it is when it is not valid percent-encoding. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The bearer token of the request, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}

/** What node:http refused, by its error code, when not a plain 400. */
const CLIENT_ERRORS: Record<string, { status: string; code: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: "431 Request Header Fields Too Large",
    code: "request_header_fields_too_large",
    detail: "The request's headers are larger than the server takes (16 KiB).",
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: "408 Request Timeout", code: "request_timeout", detail: "The request did not arrive in time." },
};

/**
 * Answers what node:http cannot parse (a lower-case method, headers over 16 KiB, a body cut
 * short of its Content-Length) with a problem document, as node:http's own default answer
 * would, but in the contract's format: written on the socket, since no response object exists.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code !== "ECONNRESET" && socket.writable && !inFlight?.headersSent) {
    const known = CLIENT_ERRORS[error.code ?? ""] ?? {
      status: "400 Bad Request",
      code: "malformed_request",
      detail: `The request is not valid HTTP/1.1 (${error.code ?? error.message}).`,
    };
    const body = JSON.stringify(problem(parseInt(known.status), known.code, known.detail));
    socket.write(
      `HTTP/1.1 ${known.status}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

// The sandbox's pages (the payment page, the dashboard): no script, no asset from anywhere. They
// must not need one, and the browser is told so; nor may another site frame them, to make a
// customer or a developer click Pay or Resend unknowingly.
const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
};

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...HTML_HEADERS, "Content-Length": String(Buffer.byteLength(html)), ...headers });
  res.end(html);
}

/** A 303 to `location`: a form's answer, so that a reload does not post it again. */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}) {
  res.writeHead(303, { Location: location, "Content-Length": "0", "Cache-Control": "no-store", ...headers });
  res.end();
}
