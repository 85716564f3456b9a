// GET /_sandbox/metrics: the runtime's metrics in Prometheus's text format, or, without
// prom-client (an optional peer dependency, as pg is), a 501 that says what to install.
import type { ServerResponse } from "node:http";
import { problem } from "../../lib/problem.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { sendJson } from "./http.ts";

export async function answerMetrics({ metrics }: Runtime, res: ServerResponse) {
  if (!metrics) {
    const detail = "GET /_sandbox/metrics needs prom-client, an optional peer dependency of the package: npm install prom-client.";
    return sendJson(res, 501, JSON.stringify(problem(501, "not_implemented", detail, { title: "Not implemented" })));
  }
  const { contentType, text } = await metrics.scrape();
  res.writeHead(200, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}
