// Server-sent events read from a stream of bytes (the WHATWG format the sandbox's listen stream
// speaks): `event:` and `data:` lines, a blank line ends an event, a line starting with `:` is a
// comment (the sandbox's pings). Enough of the format for one server that writes one `data:` line
// per event; a fuller parser would be a dependency of every install for nothing more.

export interface ServerEvent {
  event: string;
  data: string;
}

/** The events of `body`, as they complete. */
export async function* serverEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let text = "";
  let event = "message";
  const data: string[] = [];
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
      const line = text.slice(0, end).replace(/\r$/, "");
      text = text.slice(end + 1);
      if (line === "") {
        if (data.length > 0) yield { event, data: data.join("\n") };
        event = "message";
        data.length = 0;
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const [field, value] = colon < 0 ? [line, ""] : [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
    }
  }
}
