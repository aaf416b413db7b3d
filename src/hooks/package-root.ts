/**
 * The package root as hooks see it (`pi.pi`). The one place the hook contracts name the whole
 * package: `types.ts` imports this alias instead of the root, so the contracts depend on one small
 * named module, and the root (with every subsystem behind it) is loaded only when a hook reads `pi.pi`.
 */
export type PackageRoot = typeof import("../index.ts");
