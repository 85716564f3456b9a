// Finds the changes between two versions of the contract that can break a consumer.
//
// Why no library does this job here: oasdiff, whose rule catalogue (checker/rules.go) these rules
// follow, is a Go binary, and nothing may download one at install or run time; Optic and
// @asyncapi/diff, run on the same held-out cases, were wrong far more often than this check. None
// of them compares an OpenAPI `webhooks` payload and an AsyncAPI message the way a consumer meets
// them, as something it reads, and none follows one change through both documents. So this file
// does the comparison itself, on documents dereferenced by @apidevtools/json-schema-ref-parser.
//
// Directions: requests are what consumers send, so narrowing them breaks; responses, webhook
// payloads and events are what consumers read, so widening them breaks. For a webhook the roles
// swap: its payload and headers are read, its responses are what the consumer answers.
//
// What it still does not see (each is reported, never passed in silence, where it can tell):
// - keywords it does not compare (not, if/then/else, dependentSchemas, patternProperties, …):
//   any change to them is reported as "uncompared-keyword-changed", to be judged by hand;
// - whether a changed pattern accepts a superset of the old one (reported as a change);
// - readOnly/writeOnly, deprecation and sunset dates, discriminator mappings, parameter
//   serialization (style/explode), servers, examples and descriptions (meaning changes that
//   keep the shape: those are for review);
// - renamed component names that leave the documents' shape unchanged (the generated
//   TypeScript names change): a renamed schema is a major change of the package, by hand.
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { HTTP_METHODS as METHODS } from "./openapi.ts";
import type { Json } from "../../src/lib/json.ts";
import { type BreakingChange, type Direction, SchemaComparison } from "./breaking-schemas.ts";

export type { BreakingChange } from "./breaking-schemas.ts";

const cache = new WeakMap<Json, Promise<Json>>();

/** The document with every `$ref` replaced by its target, on a copy; nothing is fetched. */
export function dereferenced(doc: Json): Promise<Json> {
  // The same release is compared with many candidates (in tests): dereference it once.
  if (!cache.has(doc)) cache.set(doc, $RefParser.dereference(structuredClone(doc), { resolve: { external: false } }) as Promise<Json>);
  return cache.get(doc)!;
}

/** An operation's parameters: the path item's, overridden by the operation's of the same name and place. */
function parametersOf(item: Json, operation: Json): Map<string, Json> {
  const all = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
  return new Map(all.map((p: Json) => [`${p.in} ${p.name}`, p]));
}

/**
 * Security requirements as sets of "scheme" and "scheme:scope" names: a consumer meets one
 * requirement (alternatives are OR), and all of that requirement (AND).
 */
const requirements = (security: Json[] | undefined): Set<string>[] =>
  // No requirement at all means anonymous calls are accepted: one alternative that asks nothing.
  (security?.length ? security : [{}]).map(
    (r) => new Set(Object.entries<string[]>(r).flatMap(([scheme, scopes]) => [scheme, ...scopes.map((s) => `${scheme}:${s}`)])),
  );

class OpenapiComparison {
  readonly found: BreakingChange[] = [];

  private readonly before: Json;
  private readonly after: Json;

  constructor(before: Json, after: Json) {
    this.before = before;
    this.after = after;
  }

  private schemas(
    direction: Direction,
    role: ConstructorParameters<typeof SchemaComparison>[1],
    before: Json | undefined,
    after: Json | undefined,
    where: string,
  ) {
    this.found.push(...new SchemaComparison(direction, role).compare(before, after, where));
  }

  run(): BreakingChange[] {
    for (const [path, item] of Object.entries<Json>(this.before.paths ?? {})) {
      const next = this.after.paths?.[path];
      for (const method of METHODS.filter((m) => item[m])) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!next?.[method])
          this.found.push({
            rule: next ? "api-removed-without-deprecation" : "api-path-removed-without-deprecation",
            where,
            message: "operation removed",
          });
        else this.operation(item, item[method], next, next[method], where, "provider");
      }
    }
    for (const [name, item] of Object.entries<Json>(this.before.webhooks ?? {}))
      for (const method of METHODS.filter((m) => item[m])) {
        const next = this.after.webhooks?.[name];
        const where = `webhook ${name}`;
        if (!next?.[method]) this.found.push({ rule: "webhook-removed", where, message: "removed" });
        else this.operation(item, item[method], next, next[method], where, "consumer");
      }
    return this.found;
  }

  /**
   * One operation. `provider`: the service serves it (the consumer sends the request and reads
   * the response). `consumer`: a webhook the consumer serves (it reads the request, answers it).
   */
  private operation(itemBefore: Json, before: Json, itemAfter: Json, after: Json, where: string, served: "provider" | "consumer") {
    const sent: Direction = served === "provider" ? "request" : "response";
    const answered: Direction = served === "provider" ? "response" : "request";
    this.parameters(parametersOf(itemBefore, before), parametersOf(itemAfter, after), where, sent);
    this.requestBody(before.requestBody, after.requestBody, where, sent);
    if (served === "provider") this.security(before, after, where);
    this.responses(before.responses ?? {}, after.responses ?? {}, where, answered);
  }

  private parameters(before: Map<string, Json>, after: Map<string, Json>, where: string, direction: Direction) {
    const request = direction === "request";
    for (const [key, param] of after) {
      const old = before.get(key);
      if (!old) {
        if (request && param.in === "path")
          this.found.push({ rule: "new-request-path-parameter", where, message: `new path parameter ${param.name}` });
        else if (request && param.required)
          this.found.push({ rule: "new-required-request-parameter", where, message: `new required parameter ${key}` });
        continue;
      }
      if (request && param.required && !old.required)
        this.found.push({ rule: "request-parameter-became-required", where, message: `parameter ${key} now required` });
      if (!request && old.required && !param.required)
        this.found.push({ rule: "response-header-became-optional", where, message: `header ${param.name} no longer always sent` });
      this.schemas(direction, request ? "request-parameter" : "response-header", old.schema, param.schema, `${where} parameter ${key}`);
    }
    for (const [key, param] of before)
      if (!after.has(key))
        this.found.push(
          request
            ? { rule: "request-parameter-removed", where, message: `parameter ${key} removed: consumers still send it` }
            : {
                rule: param.required ? "required-response-header-removed" : "optional-response-header-removed",
                where,
                message: `header ${param.name} no longer sent`,
              },
        );
  }

  private requestBody(before: Json | undefined, after: Json | undefined, where: string, direction: Direction) {
    const request = direction === "request";
    const what = request ? "request body" : "payload";
    if (request && after?.required && !before?.required)
      this.found.push({
        rule: before ? "request-body-became-required" : "added-required-request-body",
        where,
        message: "request body now required",
      });
    if (!request && before?.required && after && !after.required)
      this.found.push({ rule: "response-body-became-optional", where, message: "payload no longer always sent" });
    if (before && !after)
      this.found.push({ rule: request ? "request-body-removed" : "response-body-removed", where, message: `${what} removed` });
    for (const [type, media] of Object.entries<Json>(before?.content ?? {})) {
      const next = after?.content?.[type];
      if (!next) {
        if (after)
          this.found.push({
            rule: request ? "request-body-media-type-removed" : "response-media-type-removed",
            where,
            message: `${what} ${type} no longer ${request ? "accepted" : "sent"}`,
          });
      } else this.schemas(direction, request ? "request-property" : "response-property", media.schema, next.schema, `${where} ${what}`);
    }
  }

  private security(before: Json, after: Json, where: string) {
    const [b, a] = [requirements(before.security ?? this.before.security), requirements(after.security ?? this.after.security)];
    // Each way a consumer could authenticate must still work: some requirement asks no more of it.
    for (const old of b) {
      if (a.some((req) => [...req].every((name) => old.has(name)))) continue;
      const grown = a.find((req) => [...old].every((name) => req.has(name)));
      const added = grown ? [...grown].filter((n) => !old.has(n)) : [];
      const rule = !grown
        ? "api-security-removed"
        : added.every((n) => n.includes(":"))
          ? "api-security-scope-added"
          : "api-security-requirement-added";
      this.found.push({
        rule,
        where,
        message: grown ? `now also requires ${added.join(", ")}` : `no longer accepts ${[...old].join(" + ") || "anonymous calls"}`,
      });
    }
    for (const name of new Set(b.flatMap((r) => [...r]).filter((n) => !n.includes(":")))) {
      const [x, y] = [this.before.components?.securitySchemes?.[name], this.after.components?.securitySchemes?.[name]];
      const shape = (s: Json | undefined) =>
        JSON.stringify(s && { type: s.type, scheme: s.scheme, in: s.in, name: s.name, bearerFormat: s.bearerFormat });
      if (x && y && shape(x) !== shape(y))
        this.found.push({ rule: "api-components-security-type-updated", where, message: `security scheme ${name} changed` });
    }
  }

  private responses(before: Json, after: Json, where: string, direction: Direction) {
    const reads = direction === "response";
    for (const [status, response] of Object.entries<Json>(before)) {
      const next = after[status];
      const at = `${where} → ${status}`;
      if (!next) {
        if (/^2/.test(status)) this.found.push({ rule: "response-success-status-removed", where, message: `response ${status} removed` });
        continue;
      }
      for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
        const nextHeader = next.headers?.[name];
        if (!nextHeader) {
          if (reads)
            this.found.push({
              rule: header.required ? "required-response-header-removed" : "optional-response-header-removed",
              where: at,
              message: `header ${name} removed`,
            });
          continue;
        }
        if (reads && header.required && !nextHeader.required)
          this.found.push({ rule: "response-header-became-optional", where: at, message: `header ${name} no longer always sent` });
        this.schemas(direction, reads ? "response-header" : "request-parameter", header.schema, nextHeader.schema, `${at} header ${name}`);
      }
      for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
        const nextMedia = next.content?.[type];
        if (!nextMedia) {
          if (reads) this.found.push({ rule: "response-media-type-removed", where: at, message: `${type} body removed` });
        } else this.schemas(direction, reads ? "response-property" : "request-property", media.schema, nextMedia.schema, `${at} body`);
      }
    }
  }
}

/** Breaking changes from one OpenAPI document to the next (bundled; dereferenced here). */
export async function openapiBreakingChanges(before: Json, after: Json): Promise<BreakingChange[]> {
  return new OpenapiComparison(await dereferenced(before), await dereferenced(after)).run();
}

/** Breaking changes from one AsyncAPI document to the next: the events are read by consumers. */
export async function asyncapiBreakingChanges(beforeDoc: Json, afterDoc: Json): Promise<BreakingChange[]> {
  const [before, after] = [await dereferenced(beforeDoc), await dereferenced(afterDoc)];
  const found: BreakingChange[] = [];
  const schemas = (b: Json | undefined, a: Json | undefined, where: string) =>
    found.push(...new SchemaComparison("response", "response-property").compare(b, a, where));
  for (const [key, channel] of Object.entries<Json>(before.channels ?? {})) {
    const next = after.channels?.[key];
    if (!next) {
      found.push({ rule: "channel-removed", where: `channel ${key}`, message: "removed" });
      continue;
    }
    if (channel.address !== next.address)
      found.push({
        rule: "channel-address-changed",
        where: `channel ${key}`,
        message: `address ${channel.address} became ${next.address}`,
      });
    for (const [id, message] of Object.entries<Json>(channel.messages ?? {})) {
      const nextMessage = next.messages?.[id];
      const where = `message ${message.name ?? id}`;
      if (!nextMessage) found.push({ rule: "message-removed", where, message: "removed" });
      else {
        schemas(message.payload, nextMessage.payload, `${where} payload`);
        schemas(message.headers, nextMessage.headers, `${where} headers`);
        // A message without its own content type has the document's default.
        const [type, nextType] = [message.contentType ?? before.defaultContentType, nextMessage.contentType ?? after.defaultContentType];
        if (type !== nextType)
          found.push({ rule: "message-content-type-changed", where, message: `content type ${type} became ${nextType}` });
      }
    }
  }
  for (const [id, operation] of Object.entries<Json>(before.operations ?? {})) {
    const next = after.operations?.[id];
    const where = `operation ${id}`;
    if (!next) found.push({ rule: "operation-removed", where, message: "removed" });
    else {
      if (operation.action !== next.action)
        found.push({ rule: "operation-action-changed", where, message: `action ${operation.action} became ${next.action}` });
      if (JSON.stringify(operation.bindings ?? null) !== JSON.stringify(next.bindings ?? null))
        found.push({ rule: "operation-bindings-changed", where, message: "bindings changed" });
    }
  }
  return found;
}

/** One line per change, for people. */
export const describe = (change: BreakingChange) => `${change.where}: ${change.message} [${change.rule}]`;
