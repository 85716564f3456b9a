// Compares two versions of one JSON Schema (already dereferenced) in one direction:
// - "request": what a consumer sends. Narrowing it breaks (a value that passed may now fail).
// - "response": what a consumer reads (responses, webhook payloads, events). Widening it breaks
//   (a consumer may now meet a value it was told it would never see).
// `allOf` is merged into one schema first, so that wrapping a schema in `allOf` with a
// refinement (or moving a property between branches) is judged by what the values may be, not
// by where the keywords sit. `oneOf`/`anyOf` branches are matched by what they contain.
import type { Json } from "../../src/lib/json.ts";

export type { Json };
export type Direction = "request" | "response";

/** One breaking change: the oasdiff rule it corresponds to (or ours, where oasdiff has none). */
export interface BreakingChange {
  rule: string;
  where: string;
  message: string;
}

/** Where a schema sits, which names its findings the way oasdiff does. */
export type SchemaRole = "request-property" | "request-parameter" | "response-property" | "response-header";

const UNION_KEYWORDS = ["oneOf", "anyOf"] as const;
// Keywords this check does not compare: any change to them is reported, never passed in silence.
const UNCOMPARED = [
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "contains",
  "minContains",
  "maxContains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "contentSchema",
  "contentMediaType",
  "contentEncoding",
  "additionalItems",
];
// Formats whose values have a fixed length: a maxLength at or above it narrows nothing.
const FORMAT_MAX_LENGTH: Record<string, number> = { date: 10, uuid: 36 };

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const types = (s: Json): string[] | undefined => (s.type === undefined ? undefined : [s.type].flat());
const values = (s: Json): unknown[] | undefined => (s.const !== undefined ? [s.const] : s.enum);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => JSON.stringify(v);

/** One schema equivalent to `allOf` of its branches and itself (nested allOf included). */
export function mergeAllOf(schema: Json | boolean | undefined): Json {
  if (!isObject(schema)) return schema === false ? { not: {} } : {};
  const { allOf, ...own } = schema;
  return (allOf ?? []).reduce((merged: Json, branch: Json) => intersect(merged, mergeAllOf(branch)), { ...own });
}

const LOWER = ["minimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "maxLength", "maxItems", "maxProperties"];

/** The schema both `a` and `b` describe (a conjunction), for the keywords this check compares. */
function intersect(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined) out[key] = value;
    else if (LOWER.includes(key) || key === "exclusiveMinimum") out[key] = Math.max(mine, value);
    else if (UPPER.includes(key) || key === "exclusiveMaximum") out[key] = Math.min(mine, value);
    else if (key === "type") out.type = intersectTypes([mine].flat(), [value].flat());
    else if (key === "enum") out.enum = mine.filter((v: unknown) => value.some((w: unknown) => same(v, w)));
    else if (key === "required") out.required = [...new Set([...mine, ...value])];
    else if (key === "properties") {
      out.properties = { ...mine };
      for (const [name, schema] of Object.entries<Json>(value))
        out.properties[name] = name in mine ? { allOf: [mine[name], schema] } : schema;
    } else if (key === "pattern" && mine !== value) out.patterns = [...new Set([...(out.patterns ?? [mine]), value])];
    else if (key === "additionalProperties") out.additionalProperties = mine === false || value === false ? false : mine;
    else if (key === "items") out.items = { allOf: [mine, value] };
    else if ((UNION_KEYWORDS as readonly string[]).includes(key) && !same(mine, value))
      out.allOf = [...(out.allOf ?? []), { [key]: value }];
  }
  return out.allOf ? mergeAllOf(out) : out;
}

/** The JSON types both lists admit; an integer is a number. */
function intersectTypes(a: string[], b: string[]): string | string[] {
  const both = [
    ...new Set(
      a.flatMap((t) =>
        b.includes(t) ? [t] : t === "number" && b.includes("integer") ? ["integer"] : t === "integer" && b.includes("number") ? [t] : [],
      ),
    ),
  ];
  return both.length === 1 ? both[0]! : both;
}

const patternsOf = (s: Json): string[] => s.patterns ?? (s.pattern !== undefined ? [s.pattern] : []);

/** A lower or upper bound, with its exclusiveness, from the inclusive and exclusive keywords. */
function bound(s: Json, side: "min" | "max"): { value: number; exclusive: boolean; keyword: string } | undefined {
  const [inclusive, exclusive] = side === "min" ? ["minimum", "exclusiveMinimum"] : ["maximum", "exclusiveMaximum"];
  const i = s[inclusive];
  const e = s[exclusive];
  if (i === undefined && e === undefined) return undefined;
  if (e === undefined || (i !== undefined && (side === "min" ? i > e : i < e))) return { value: i, exclusive: false, keyword: inclusive };
  return { value: e, exclusive: true, keyword: exclusive };
}

/** True when bound `a` admits fewer values than bound `b` (undefined admits every value). */
function stricter(a: ReturnType<typeof bound>, b: ReturnType<typeof bound>, side: "min" | "max"): boolean {
  if (!a) return false;
  if (!b) return true;
  if (a.value !== b.value) return side === "min" ? a.value > b.value : a.value < b.value;
  return a.exclusive && !b.exclusive;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A branch's identity, from what it contains: its title, else the constants it pins. */
function branchKey(s: Json): string | undefined {
  if (s.title) return `title:${s.title}`;
  const consts = Object.entries<Json>(s.properties ?? {}).filter(([, p]) => mergeAllOf(p).const !== undefined);
  return consts.length ? consts.map(([k, p]) => `${k}=${show(mergeAllOf(p).const)}`).join(",") : undefined;
}

export class SchemaComparison {
  readonly found: BreakingChange[] = [];

  private readonly direction: Direction;
  private readonly role: SchemaRole;

  constructor(direction: Direction, role: SchemaRole) {
    this.direction = direction;
    this.role = role;
  }

  private report(kind: string, where: string, message: string) {
    this.reportRule(`${this.role}-${kind}`, where, message);
  }

  /** A finding whose rule id oasdiff spells another way than `<role>-<kind>`. */
  private reportRule(rule: string, where: string, message: string) {
    this.found.push({ rule, where, message });
  }

  compare(beforeSchema: Json | boolean | undefined, afterSchema: Json | boolean | undefined, where: string): BreakingChange[] {
    if (beforeSchema === undefined || afterSchema === undefined) return this.found;
    const before = mergeAllOf(beforeSchema);
    const after = mergeAllOf(afterSchema);
    const request = this.direction === "request";
    // A schema wrapped in (or unwrapped from) oneOf/anyOf is compared branch by branch only.
    const wrapped = UNION_KEYWORDS.find((k) => !before[k] !== !after[k]);
    if (wrapped) {
      this.compareBranches(before, after, wrapped, where);
      return this.found;
    }
    // What may narrow (request) or widen (response): `from` must fit inside `to` for nobody to break.
    const [wider, narrower] = request ? [before, after] : [after, before];

    this.compareTypes(before, after, where);
    this.compareValues(before, after, where);

    for (const side of ["min", "max"] as const) {
      const b = bound(before, side);
      const a = bound(after, side);
      if (stricter(bound(narrower, side), bound(wider, side), side)) {
        const keyword = (request ? a : b)?.keyword ?? (side === "min" ? "minimum" : "maximum");
        const change = request
          ? b
            ? side === "min"
              ? "increased"
              : "decreased"
            : "set"
          : a
            ? side === "min"
              ? "decreased"
              : "increased"
            : "unset";
        this.report(
          `${kebab(keyword).replace("imum", "")}-${change}`,
          where,
          `${keyword} ${b ? `${b.keyword} ${b.value}` : "(none)"} became ${a ? `${a.keyword} ${a.value}` : "(none)"}`,
        );
      }
    }
    for (const [lower, upper] of [
      ["minLength", "maxLength"],
      ["minItems", "maxItems"],
      ["minProperties", "maxProperties"],
    ] as const) {
      const upperOf = (s: Json) => s[upper] ?? (upper === "maxLength" ? FORMAT_MAX_LENGTH[s.format ?? ""] : undefined) ?? Infinity;
      if ((narrower[lower] ?? 0) > (wider[lower] ?? 0))
        this.report(
          `${kebab(lower)}-${request ? (before[lower] === undefined ? "set" : "increased") : "decreased"}`,
          where,
          `${lower} ${before[lower] ?? "(none)"} became ${after[lower] ?? "(none)"}`,
        );
      // A format of fixed length (date) bounds the value already: a maxLength at that length narrows nothing.
      if (upperOf(narrower) < upperOf(wider))
        this.report(
          `${kebab(upper)}-` +
            `${request ? (before[upper] === undefined ? "set" : "decreased") : after[upper] === undefined ? "unset" : "increased"}`,
          where,
          `${upper} ${before[upper] ?? "(none)"} became ${after[upper] ?? "(none)"}`,
        );
    }

    const [bp, ap] = [patternsOf(before), patternsOf(after)];
    const extra = patternsOf(narrower).filter((p) => !patternsOf(wider).includes(p));
    if (extra.length) {
      const change = request ? (bp.length ? "changed" : "added") : ap.length ? "changed" : "removed";
      this.report(
        `pattern-${change}`,
        where,
        `pattern ${bp.map(show).join(" and ") || "(none)"} became ${ap.map(show).join(" and ") || "(none)"}`,
      );
    }

    if (before.format !== after.format && (request ? after.format !== undefined : before.format !== undefined))
      this.report("type-changed", where, `format ${show(before.format ?? null)} became ${show(after.format ?? null)}`);

    if (before.multipleOf !== after.multipleOf) {
      // Request: fine if every old multiple is still one (the new step divides the old).
      // Response: fine if every new multiple was one before (the old step divides the new).
      const fits = request
        ? after.multipleOf === undefined || (before.multipleOf !== undefined && Number.isInteger(before.multipleOf / after.multipleOf))
        : before.multipleOf === undefined || (after.multipleOf !== undefined && Number.isInteger(after.multipleOf / before.multipleOf));
      if (!fits)
        this.report(
          `multiple-of-${before.multipleOf === undefined ? "set" : after.multipleOf === undefined ? "unset" : "changed"}`,
          where,
          `multipleOf ${before.multipleOf ?? "(none)"} became ${after.multipleOf ?? "(none)"}`,
        );
    }
    if (narrower.uniqueItems === true && wider.uniqueItems !== true)
      this.report(
        `unique-items-${request ? "set" : "unset"}`,
        where,
        `uniqueItems ${before.uniqueItems ?? false} became ${after.uniqueItems ?? false}`,
      );

    this.compareProperties(before, after, where);
    if (before.items !== undefined || after.items !== undefined) this.compare(before.items ?? {}, after.items ?? {}, `${where}[]`);
    for (const keyword of UNION_KEYWORDS) this.compareBranches(before, after, keyword, where);
    for (const keyword of UNCOMPARED)
      if (!same(before[keyword], after[keyword]))
        this.report("uncompared-keyword-changed", where, `${keyword} changed; this check does not compare it: review by hand`);
    return this.found;
  }

  private compareTypes(before: Json, after: Json, where: string) {
    const [b, a] = [types(before), types(after)];
    const admits = (set: string[] | undefined, t: string) => !set || set.includes(t) || (t === "integer" && set.includes("number"));
    const [from, to] = this.direction === "request" ? [b, a] : [a, b];
    const lost = from === undefined ? (to === undefined ? [] : ["any type"]) : from.filter((t) => !admits(to, t));
    if (!lost.length) return;
    const kind =
      lost.includes("null") && lost.length === 1
        ? this.direction === "request"
          ? "became-not-nullable"
          : "became-nullable"
        : "type-changed";
    this.report(kind, where, `type ${b?.join("|") ?? "(any)"} became ${a?.join("|") ?? "(any)"}`);
  }

  private compareValues(before: Json, after: Json, where: string) {
    const [b, a] = [values(before), values(after)];
    if (this.direction === "request") {
      if (!a) return;
      const lost = b ? b.filter((v) => !a.some((w) => same(v, w))) : undefined;
      if (b && !lost!.length) return;
      const kind =
        after.const !== undefined
          ? before.const !== undefined
            ? "const-changed"
            : "const-added"
          : b
            ? "enum-value-removed"
            : "became-enum";
      this.report(kind, where, lost ? `no longer accepts ${lost.map(show).join(", ")}` : `accepts only ${a.map(show).join(", ")} now`);
    } else {
      if (!b) return;
      const added = a ? a.filter((v) => !b.some((w) => same(v, w))) : undefined;
      if (a && !added!.length) return;
      const kind =
        before.const !== undefined
          ? after.const !== undefined
            ? "const-changed"
            : "const-removed"
          : a
            ? "enum-value-added"
            : "became-not-enum";
      this.report(kind, where, added ? `may now hold ${added.map(show).join(", ")}` : "may now hold any value");
    }
  }

  private compareProperties(before: Json, after: Json, where: string) {
    const [bp, ap] = [before.properties ?? {}, after.properties ?? {}];
    const [br, ar] = [new Set<string>(before.required ?? []), new Set<string>(after.required ?? [])];
    const request = this.direction === "request";
    for (const name of Object.keys(bp)) {
      const at = `${where}.${name}`;
      if (!(name in ap)) {
        // A request property a consumer may send is only gone if unknown properties are refused.
        if (!request)
          this.reportRule(br.has(name) ? "response-required-property-removed" : "response-optional-property-removed", at, "removed");
        else if (after.additionalProperties === false) this.report("removed", at, "removed, and unknown properties are refused");
        continue;
      }
      this.compare(bp[name], ap[name], at);
    }
    for (const name of ar)
      if (request && !br.has(name))
        if (name in bp) this.report("became-required", `${where}.${name}`, "now required");
        else
          this.reportRule(
            this.role === "request-property" ? "new-required-request-property" : `${this.role}-new-required`,
            `${where}.${name}`,
            "new and required",
          );
    for (const name of br)
      if (!request && !ar.has(name) && name in ap) this.report("became-optional", `${where}.${name}`, "no longer always present");
    if (request && before.additionalProperties !== false && after.additionalProperties === false)
      this.report("additional-properties-refused", where, "no longer accepts unknown properties");
  }

  /** Matches `oneOf`/`anyOf` branches by what they contain; a schema without one is its own only branch. */
  private compareBranches(before: Json, after: Json, keyword: (typeof UNION_KEYWORDS)[number], where: string) {
    if (!before[keyword] && !after[keyword]) return;
    const strip = (s: Json) => {
      const { [keyword]: _, ...rest } = s;
      return rest;
    };
    // Each branch with what the schema says beside the keyword (properties common to all branches).
    const branches = (s: Json): Json[] => (s[keyword] ?? [{}]).map((branch: Json) => mergeAllOf({ allOf: [strip(s), branch] }));
    // A branch is known by what it says itself (its title), not by what it shares with the others.
    const keys = (s: Json): Array<string | undefined> => (s[keyword] ?? [s]).map((branch: Json) => branchKey(mergeAllOf(branch)));
    const [bs, as] = [branches(before), branches(after)];
    const [bk, ak] = [keys(before), keys(after)];
    // Branches with an identity (title, pinned constants) pair by it; the rest pair greedily by
    // how little they differ (fewest findings), so that order never matters.
    const matchOf = new Map<number, number>();
    const taken = new Set<number>();
    bs.forEach((b, i) => {
      const j = ak.findIndex((key, j) => !taken.has(j) && bk[i] !== undefined && key === bk[i]);
      if (j >= 0) matchOf.set(i, j), taken.add(j);
    });
    const candidates = bs.flatMap((b, i) =>
      matchOf.has(i)
        ? []
        : as.flatMap((a, j) =>
            taken.has(j) ? [] : [[i, j, new SchemaComparison(this.direction, this.role).compare(b, a, where).length] as const],
          ),
    );
    for (const [i, j] of candidates.sort((x, y) => x[2] - y[2])) if (!matchOf.has(i) && !taken.has(j)) matchOf.set(i, j), taken.add(j);
    const unmatched = [...as.keys()].filter((j) => !taken.has(j));
    const pairs: Array<[Json, Json | undefined]> = bs.map((b, i) => [b, matchOf.has(i) ? as[matchOf.get(i)!] : undefined]);
    const request = this.direction === "request";
    pairs.forEach(([b, a], i) => {
      const label = `${where} (${keyword} ${bk[i] ?? `branch ${i + 1}`})`;
      if (!a) {
        if (request) this.report(`${kebab(keyword)}-removed`, label, "branch removed");
      } else this.compare(b, a, before[keyword] && after[keyword] ? label : where);
    });
    if (!request)
      for (const i of unmatched)
        this.report(
          `${kebab(keyword)}-added`,
          `${where} (${keyword} ${ak[i] ?? `branch ${i + 1}`})`,
          "branch added: consumers may receive a shape they do not handle",
        );
  }
}
