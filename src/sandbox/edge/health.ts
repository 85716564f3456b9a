// GET /_sandbox/health: whether this process can serve, for a load balancer's checks. 200 while
// it can; 503 with the reason while its database does not answer, and from the moment it begins
// to stop, so that a balancer takes it out of rotation while it still answers (--drain).
import type { ServerResponse } from "node:http";
import { problem } from "../../lib/problem.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { sendJson } from "./http.ts";

export async function answerHealth(runtime: Runtime, res: ServerResponse) {
  const health = await runtime.health();
  if (!health.serving)
    return sendJson(res, 503, JSON.stringify(problem(503, "service_unavailable", health.detail)), {
      "Cache-Control": "no-store",
      "Retry-After": "1",
    });
  sendJson(res, 200, JSON.stringify({ status: "serving", database: health.database }), { "Cache-Control": "no-store" });
}
