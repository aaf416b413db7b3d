/**
 * `@sinclair/typebox` for `pi.typebox`, required lazily by the loader. Through this ESM re-export,
 * not `require("@sinclair/typebox")`: that would pick the package's CommonJS build, a second copy
 * besides the ESM one hooks get from `import`.
 */
import * as typebox from "@sinclair/typebox";

export { typebox };
