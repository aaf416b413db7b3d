/** TypeBox's checker and error iterator, required lazily by `validate.ts` (off the start-up path). */
export { Errors } from "@sinclair/typebox/errors";
export { Check } from "@sinclair/typebox/value";
