// Which field of a request or an event a schema error is about, the one answer of the webhook
// toolkit, the sandbox and the mock: the dot path to the value and, when a property is missing
// or not allowed, that property itself (its parent only holds it, and a caller fixes the field).

/** The field at `path` (object keys and array indices), or the `property` named there. */
export function fieldPath(path: ReadonlyArray<string | number>, property?: string): string {
  return (property === undefined ? path : [...path, property]).join(".");
}

/** What the field needs of an Ajv error (the generated validators' and Prism's). */
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

// A JSON Pointer escapes `/` and `~` in a key (RFC 6901).
const unescape = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");

/** The field an Ajv error is about. */
export function ajvErrorField({ instancePath, keyword, params }: AjvError): string {
  const property =
    keyword === "required" ? params.missingProperty : keyword === "additionalProperties" ? params.additionalProperty : undefined;
  return fieldPath(instancePath.split("/").slice(1).map(unescape), property === undefined ? undefined : String(property));
}
