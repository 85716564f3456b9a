// The delivery log's cursor: where its next page starts, the last attempt listed (its time, its event's number, its own
// number), opaque to the caller. A checksum over that position, the account and the session filter makes a cursor cut,
// edited, or given to another account or for another session answer 422 rather than a page from somewhere else. It is
// no secret: a cursor made by hand that passes pages the caller's own log from another place, which it may read anyway.
// Only three whole numbers of a cursor ever reach the database, never its text.
import { createHash } from "node:crypto";
import type { LogPosition } from "../../store/outbox.ts";

/** What a cursor was given for: the account, and the session its log was filtered by. */
export interface LogScope {
  accountId: number;
  sessionId?: string;
}

const checksum = ({ accountId, sessionId = "" }: LogScope, position: string) =>
  createHash("sha256").update(`payin-sandbox delivery log\n${accountId}\n${sessionId}\n${position}`).digest("base64url").slice(0, 16);

const POSITION = /^(\d{1,16})\.(\d{1,16})\.(\d{1,16})\.([\w-]{16})$/;

/** The cursor of the page that starts after `position`. */
export function cursorAfter({ attemptedAtMs, eventSeq, attempt }: LogPosition, scope: LogScope): string {
  const position = `${attemptedAtMs}.${eventSeq}.${attempt}`;
  return Buffer.from(`${position}.${checksum(scope, position)}`).toString("base64url");
}

/** Where the page a cursor asks for starts; undefined when it is not a cursor as this sandbox gave it for `scope`. */
export function positionOf(cursor: string, scope: LogScope): LogPosition | undefined {
  const text = Buffer.from(cursor, "base64url");
  // Decoding skips what is not base64url and the last character's spare bits: only the cursor as it was made is taken.
  if (text.toString("base64url") !== cursor) return undefined;
  const [, attemptedAtMs, eventSeq, attempt, sum] = POSITION.exec(text.toString("latin1")) ?? [];
  if (sum === undefined || sum !== checksum(scope, `${attemptedAtMs}.${eventSeq}.${attempt}`)) return undefined;
  const position = { attemptedAtMs: Number(attemptedAtMs), eventSeq: Number(eventSeq), attempt: Number(attempt) };
  return Object.values(position).every(Number.isSafeInteger) ? position : undefined;
}
