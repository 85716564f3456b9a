// The dashboard's small pieces of HTML, each value escaped: code, a time that may break after its
// date, the note a button's message shows in.
import { escapeHtml as e } from "../page/render.ts";

export { e };

export type Message = { ok: boolean; text: string };

export const code = (text: string) => `<code>${e(text)}</code>`;

/** A value on one line, cut with an ellipsis where its column ends, whole in its title; on a phone's card, wrapped whole. */
export const clipped = (text: string, tag: "code" | "span" = "code") => `<${tag} class="clip" title="${e(text)}">${e(text)}</${tag}>`;

/** An RFC 3339 time, which a narrow column may break after its date. */
export const when = (time: string) => `<code>${e(time).replace("T", "T<wbr>")}</code>`;

export const note = (message?: Message) =>
  message ? `<p class="note ${message.ok ? "ok" : "bad"}" role="status">${e(message.text)}</p>` : "";
