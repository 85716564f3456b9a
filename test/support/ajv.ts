import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/** Ajv for the contract's schemas: JSON Schema 2020-12, formats checked, our extensions known. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats.default(ajv);
  ajv.addKeyword("x-decision");
  ajv.addKeyword("x-minor-units");
  return ajv;
}
