// The paths the kit calls, typed by the documents it checks against: a template that neither the
// contract nor the sandbox's control API has does not compile, nor one left without a parameter
// it needs. The kit's own requests are thereby held to the contract as the client's are.
import type { paths as ContractPaths } from "../../generated/openapi.ts";
import type { paths as ControlPaths } from "../../generated/sandbox.ts";

/** A path template of either document: `/api/v1/earn/transactions/{transaction_id}/`. */
export type PathTemplate = keyof ContractPaths | keyof ControlPaths;

/** The names of a template's parameters: `transaction_id`. */
type ParameterNames<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | ParameterNames<Rest> : never;

/** A value for each of the template's parameters, or nothing when it has none. */
type ParametersOf<T extends string> = [ParameterNames<T>] extends [never]
  ? []
  : [parameters: { readonly [N in ParameterNames<T>]: string }];

/** The path of `template` with each parameter's value put in, encoded. */
export function pathTo<T extends PathTemplate>(template: T, ...[parameters]: ParametersOf<T>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent((parameters as Record<string, string>)[name]!));
}

/** `path` when neither document has it; a path one of them gained does not compile. */
export const notAPath = <P extends string>(path: P extends PathTemplate ? never : P): string => path;
