/**
 * The packed declaration files (see `collect.ts`), filled in by `scripts/build.ts` when it compiles
 * the executable; `undefined` when run from source, where they are collected from the checkout.
 * Only `xcsh-hooks types` and `init` import this module, so no other command loads its megabyte.
 */
export const EMBEDDED_DECLARATIONS: string | undefined = undefined;
