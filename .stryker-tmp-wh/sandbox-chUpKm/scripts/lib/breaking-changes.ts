// @ts-nocheck
// Finds the changes between two versions of the contract that can break a consumer.
// Requests are what consumers send: narrowing them breaks. Responses, and webhook payloads
// (which consumers receive like responses), are what consumers read: removing from them, or
// widening what they may hold, breaks.
type Json = Record<string, any>;
type Direction = "request" | "response";

/** Resolves internal `$ref`s (`#/components/...`) in place, on a copy. */
export function dereference(doc: Json): Json {
  const resolve = (node: any, seen: string[]): any => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, seen));
    if (!node || typeof node !== "object") return node;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
      if (seen.includes(node.$ref)) return {};
      const target = node.$ref
        .slice(2)
        .split("/")
        .reduce((o: any, k: string) => o?.[k.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
      const { $ref, ...siblings } = node;
      return { ...resolve(target, [...seen, $ref]), ...resolve(siblings, seen) };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v, seen)]));
  };
  return resolve(doc, []);
}

const NARROWING: Record<string, (before: any, after: any) => boolean> = {
  maxLength: (b, a) => a === undefined ? false : b === undefined || a < b,
  maximum: (b, a) => a === undefined ? false : b === undefined || a < b,
  exclusiveMaximum: (b, a) => a === undefined ? false : b === undefined || a < b,
  minLength: (b, a) => a === undefined ? false : b === undefined || a > b,
  minimum: (b, a) => a === undefined ? false : b === undefined || a > b,
  exclusiveMinimum: (b, a) => a === undefined ? false : b === undefined || a > b,
  maxItems: (b, a) => a === undefined ? false : b === undefined || a < b,
  minItems: (b, a) => a === undefined ? false : b === undefined || a > b,
};

export function compareSchemas(before: Json | undefined, after: Json | undefined, where: string, direction: Direction, out: string[]) {
  if (!before || !after) return;
  const typeOf = (s: Json) => [s.type].flat().filter(Boolean).sort().join("|");
  if (typeOf(before) && typeOf(after) && typeOf(before) !== typeOf(after)) out.push(`${where}: type ${typeOf(before)} became ${typeOf(after)}`);
  if (before.const !== undefined && before.const !== after.const) out.push(`${where}: constant ${JSON.stringify(before.const)} became ${JSON.stringify(after.const)}`);

  if (before.enum || after.enum) {
    const b: unknown[] = before.enum ?? [];
    const a: unknown[] = after.enum ?? [];
    if (direction === "request") {
      const removed = b.filter((v) => !a.includes(v));
      if (after.enum && (removed.length || !before.enum)) out.push(`${where}: no longer accepts ${removed.length ? removed.map((v) => JSON.stringify(v)).join(", ") : "any value outside the new enum"}`);
    } else {
      const added = a.filter((v) => !b.includes(v));
      if (before.enum && (added.length || !after.enum)) out.push(`${where}: may now hold ${added.length ? added.map((v) => JSON.stringify(v)).join(", ") : "any value"}`);
    }
  }

  for (const keyword of ["pattern", "format"]) {
    if (before[keyword] !== after[keyword] && (direction === "request" ? after[keyword] !== undefined : before[keyword] !== undefined))
      out.push(`${where}: ${keyword} ${JSON.stringify(before[keyword])} became ${JSON.stringify(after[keyword])}`);
  }
  for (const [keyword, narrows] of Object.entries(NARROWING)) {
    if (before[keyword] === after[keyword]) continue;
    const broken = direction === "request" ? narrows(before[keyword], after[keyword]) : narrows(after[keyword], before[keyword]);
    if (broken) out.push(`${where}: ${keyword} ${before[keyword] ?? "(none)"} became ${after[keyword] ?? "(none)"}`);
  }

  const beforeProps: Json = before.properties ?? {};
  const afterProps: Json = after.properties ?? {};
  const beforeRequired = new Set<string>(before.required ?? []);
  const afterRequired = new Set<string>(after.required ?? []);
  for (const name of Object.keys(beforeProps)) {
    if (!(name in afterProps)) {
      if (direction === "response" || after.additionalProperties === false) out.push(`${where}.${name}: removed`);
      continue;
    }
    compareSchemas(beforeProps[name], afterProps[name], `${where}.${name}`, direction, out);
  }
  for (const name of afterRequired)
    if (direction === "request" && !beforeRequired.has(name)) out.push(`${where}.${name}: now required`);
  for (const name of beforeRequired)
    if (direction === "response" && !afterRequired.has(name)) out.push(`${where}.${name}: no longer always present`);
  if (direction === "request" && before.additionalProperties !== false && after.additionalProperties === false)
    out.push(`${where}: no longer accepts unknown properties`);

  compareSchemas(before.items, after.items, `${where}[]`, direction, out);
  for (const keyword of ["allOf", "oneOf", "anyOf"]) {
    const b: Json[] = before[keyword] ?? [];
    const a: Json[] = after[keyword] ?? [];
    b.forEach((s, i) => (a[i] ? compareSchemas(s, a[i], `${where}`, direction, out) : out.push(`${where}: ${keyword} branch ${i + 1} removed`)));
  }
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

function compareOperation(before: Json, after: Json, where: string, payloads: Direction, out: string[]) {
  const params = (op: Json) => new Map<string, Json>((op.parameters ?? []).map((p: Json) => [`${p.in} ${p.name}`, p]));
  const b = params(before);
  const a = params(after);
  // A webhook's parameters are headers the service sends: for the consumer, part of what it reads.
  for (const [key, param] of a) {
    if (payloads === "request" && !b.has(key) && param.required) out.push(`${where}: new required parameter ${key}`);
    if (payloads === "request" && b.has(key) && param.required && !b.get(key)!.required) out.push(`${where}: parameter ${key} now required`);
    if (payloads === "response" && b.has(key) && b.get(key)!.required && !param.required) out.push(`${where}: parameter ${key} no longer always sent`);
    if (b.has(key)) compareSchemas(b.get(key)!.schema, param.schema, `${where} parameter ${key}`, payloads, out);
  }
  for (const key of b.keys()) if (!a.has(key)) out.push(`${where}: parameter ${key} removed`);

  if (after.requestBody?.required && !before.requestBody?.required) out.push(`${where}: request body now required`);
  for (const [type, media] of Object.entries<Json>(before.requestBody?.content ?? {})) {
    const next = after.requestBody?.content?.[type];
    if (!next) out.push(`${where}: request body ${type} no longer accepted`);
    else compareSchemas(media.schema, next.schema, `${where} ${payloads === "response" ? "payload" : "request body"}`, payloads, out);
  }
  if (JSON.stringify(before.security ?? null) !== JSON.stringify(after.security ?? null)) out.push(`${where}: security changed`);

  for (const [status, response] of Object.entries<Json>(before.responses ?? {})) {
    const next = after.responses?.[status];
    if (!next) {
      if (status.startsWith("2")) out.push(`${where}: response ${status} removed`);
      continue;
    }
    for (const [name, header] of Object.entries<Json>(response.headers ?? {}))
      if (!next.headers?.[name]) out.push(`${where} → ${status}: header ${name} removed`);
    for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
      const nextMedia = next.content?.[type];
      if (!nextMedia) out.push(`${where} → ${status}: ${type} body removed`);
      else compareSchemas(media.schema, nextMedia.schema, `${where} → ${status} body`, "response", out);
    }
  }
}

/** Breaking changes from one OpenAPI document to the next (bundled; refs are resolved here). */
export function openapiBreakingChanges(beforeDoc: Json, afterDoc: Json): string[] {
  const before = dereference(beforeDoc);
  const after = dereference(afterDoc);
  const out: string[] = [];
  if (JSON.stringify(before.security ?? null) !== JSON.stringify(after.security ?? null)) out.push("global security changed");
  for (const [path, item] of Object.entries<Json>(before.paths ?? {}))
    for (const method of METHODS.filter((m) => item[m])) {
      const next = after.paths?.[path]?.[method];
      const where = `${method.toUpperCase()} ${path}`;
      if (!next) out.push(`${where}: operation removed`);
      else compareOperation(item[method], next, where, "request", out);
    }
  // Webhook payloads are read by consumers: compared as responses.
  for (const [name, item] of Object.entries<Json>(before.webhooks ?? {})) {
    const next = after.webhooks?.[name]?.post;
    if (!next) out.push(`webhook ${name}: removed`);
    else compareOperation(item.post, next, `webhook ${name}`, "response", out);
  }
  return out;
}

/** Breaking changes from one AsyncAPI document to the next: events are read by consumers. */
export function asyncapiBreakingChanges(beforeDoc: Json, afterDoc: Json): string[] {
  const before = dereference(beforeDoc);
  const after = dereference(afterDoc);
  const out: string[] = [];
  for (const [key, channel] of Object.entries<Json>(before.channels ?? {})) {
    const next = after.channels?.[key];
    if (!next) {
      out.push(`channel ${key}: removed`);
      continue;
    }
    for (const [id, message] of Object.entries<Json>(channel.messages ?? {})) {
      const nextMessage = next.messages?.[id];
      const where = `message ${message.name ?? id}`;
      if (!nextMessage) out.push(`${where}: removed`);
      else {
        compareSchemas(message.payload, nextMessage.payload, `${where} payload`, "response", out);
        compareSchemas(message.headers, nextMessage.headers, `${where} headers`, "response", out);
      }
    }
  }
  for (const [id, operation] of Object.entries<Json>(before.operations ?? {})) {
    const next = after.operations?.[id];
    if (!next) out.push(`operation ${id}: removed`);
    else if (JSON.stringify(operation.bindings ?? null) !== JSON.stringify(next.bindings ?? null)) out.push(`operation ${id}: bindings changed`);
  }
  return out;
}
