// The problems the sandbox answers in more than one place, through the package's one builder.
import { problem } from "../../lib/problem.ts";

export const webhookNotRegistered = () =>
  problem(404, "webhook_not_registered", "This account has no webhook URL; register one with POST /webhooks.");

/** An event with nowhere to go: a listener connected would take it as well as a URL (decision D23). */
export const nowhereToSend = () =>
  problem(
    404,
    "webhook_not_registered",
    "This account has no webhook URL and no listener connected; register a URL with POST /webhooks, or connect payin-listen.",
  );

export const sessionNotFound = (id: string) => problem(404, "not_found", `No payment session with id ${id} exists for this account.`);

/** A session that can no longer be paid: completed once already, or expired. */
export const notPayable = (session: { id: string; status: string; expires_at: string }) =>
  problem(
    409,
    "session_not_payable",
    session.status === "completed"
      ? `Payment session ${session.id} is already paid.`
      : `Payment session ${session.id} expired at ${session.expires_at}.`,
  );
