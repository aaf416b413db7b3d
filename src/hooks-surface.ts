/**
 * `xcsh-hooks/hooks`, the hooks surface: loading, runner, tool wrapper, hook types and exec (src/hooks),
 * and discover-and-load (src/discovery). It stands above both layers, so neither imports the other
 * for it; and it hands the hook loader the package root it serves as `pi.pi`, loaded only when a hook reads it.
 */
import { handPackageRoot, type PackageRoot } from "./hooks/package-root.ts";

export * from "./hooks/index.ts";
export {
	discoverAndLoadHooks,
	type DiscoverAndLoadOptions,
	type DiscoverAndLoadResult,
	type SkippedHook,
} from "./discovery/discover.ts";

/** `pi.pi` is the package root, whole: said here too, for an editor that reads this surface alone. */
type Root = typeof import("./index.ts");
declare module "./hooks/package-root.ts" {
	interface PackageRoot extends Root {}
}

// A synchronous `require` keeps `pi.pi` a plain value and the module the same instance `import` gets.
handPackageRoot(() => require("./index.ts") as PackageRoot);
