// Reading a request's body as both servers (the mock's front and the sandbox) must: the whole
// of it up to the contract's 64 KiB (decision D16), an oversized one drained up to a limit and
// then refused, and which media types and charsets count as JSON.
import type { IncomingMessage } from "node:http";

/** Request bodies larger than this get 413 (decision D16). */
export const MAX_BODY_BYTES = 64 * 1024;
/** Past this the server stops reading an oversized body, answers, and closes the connection. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** The whole body, or "too large" once it passes MAX_BODY_BYTES (the rest is drained, up to a limit). */
export function readBody(req: IncomingMessage): Promise<Buffer | "too large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        req.removeAllListeners("data");
        req.pause();
        resolve("too large");
      }
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? "too large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export const isJsonType = (type: string | undefined) => !!type && /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type);

/** The charset a Content-Type names when it is not UTF-8, the one charset of JSON (RFC 8259, 8.1). */
export function foreignCharset(type: string | undefined): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type ?? "")?.[1];
  return charset !== undefined && !/^utf-?8$/i.test(charset) ? charset : undefined;
}
