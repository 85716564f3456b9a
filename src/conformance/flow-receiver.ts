// The webhook receiver the flows register: a strict merchant. It acknowledges (204) only a
// delivery whose Standard Webhooks signature verifies with the account's signing secret and
// whose event, with the ones of its session acknowledged before, happened in an order the state
// machines allow; it refuses any other (400, 409) and says why. So `succeeded` in the
// sandbox's delivery log, which the workflows read, means delivered, signed and in order. It
// listens with TLS on loopback, so that the URL it registers is `https://`, as the contract
// requires.
import type { Clock } from "../lib/clock.ts";
import { LOOPBACK_TLS } from "../lib/loopback-tls.ts";
import { verifyWebhook, type PayinEvent } from "../webhooks/index.ts";
import { orderViolation } from "./event-order.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

export interface FlowReceiver {
  url: string;
  /** Why each refused delivery was refused, in the order they came. */
  refusals: string[];
  /** The account's signing secret, from its registration: until it is known, every delivery is refused. */
  secret: string | undefined;
  close(): Promise<void>;
}

export async function startFlowReceiver(options: {
  host?: string;
  port?: number;
  publicUrl?: string;
  clock?: Clock;
}): Promise<FlowReceiver> {
  const receiver: Receiver = await startReceiver({ ...options, tls: LOOPBACK_TLS });
  const acknowledged = new Map<string, PayinEvent[]>();
  const flows: FlowReceiver = {
    url: receiver.url,
    refusals: [],
    secret: undefined,
    close: () => receiver.close(),
  };
  const refuse = (status: number, why: string) => {
    flows.refusals.push(why);
    return status;
  };
  receiver.answer = async ({ body, headers }) => {
    const id = headers["webhook-id"] ?? "(no webhook-id)";
    if (flows.secret === undefined) return refuse(400, `refused ${id}: it came before the receiver's URL was registered`);
    let event: PayinEvent;
    try {
      event = await verifyWebhook(body, headers, flows.secret);
    } catch (error) {
      return refuse(400, `refused ${id}: ${(error as Error).message}`);
    }
    const sessionId = event.data.session_id;
    const earlier = (acknowledged.get(sessionId) ?? []).filter((e) => e.id !== event.id);
    const violation = orderViolation([...earlier, event], sessionId);
    if (violation) return refuse(409, `refused ${id} (${event.type}): ${violation}`);
    acknowledged.set(sessionId, [...earlier, event]);
    return 204;
  };
  return flows;
}
