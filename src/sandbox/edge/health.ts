// GET /_sandbox/health: whether this process can serve, for a load balancer's checks. 200 while
// it can; 503 with the reason while its database does not answer, and from the moment it begins
// to stop, so that a balancer takes it out of rotation while it still answers (--drain).
import type { ServerResponse } from "node:http";
import { problem } from "../../lib/problem.ts";
import { sendJson } from "./http.ts";

/** `ping` resolves once the database answered; `database` names its engine. */
export async function answerHealth(res: ServerResponse, ping: () => Promise<void>, database: string, stopping: boolean) {
  const unavailable = (detail: string) =>
    sendJson(res, 503, JSON.stringify(problem(503, "service_unavailable", detail)), { "Cache-Control": "no-store", "Retry-After": "1" });
  if (stopping) return unavailable("This sandbox process is stopping: send requests to another.");
  try {
    await ping();
  } catch (error) {
    return unavailable(`This sandbox process cannot reach its database: ${(error as Error).message}.`);
  }
  sendJson(res, 200, JSON.stringify({ status: "serving", database }), { "Cache-Control": "no-store" });
}
