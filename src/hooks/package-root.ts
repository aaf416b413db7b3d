import { XcshError } from "../errors.ts";
/**
 * The package root as hooks see it (`pi.pi`). Declared here without members and filled in by the
 * root itself (src/index.ts declares it as its own type), so the hook contracts name no layer above
 * them; a hook author's editor, which reads the root's declarations, sees every export.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the package root (src/index.ts) adds its exports to it.
export interface PackageRoot {}

let handed: (() => PackageRoot) | undefined;
let root: PackageRoot | undefined;

/**
 * Hands the hook loader the package root it serves as `pi.pi`, evaluated when a hook first reads it
 * (it pulls in every subsystem: tools, UI, session store…, which would otherwise cost each `emit`
 * start-up ≈2 ms). Each entry above the loader hands it: the root (`xcsh-hooks`), the
 * `xcsh-hooks/hooks` and `xcsh-hooks/testing` surfaces, and the program that serves the library to
 * its hooks (src/embedded/register.ts). They all hand the same module, so the first one stays.
 */
export function handPackageRoot(load: () => PackageRoot): void {
	handed ??= load;
}

/** The package root for `pi.pi`; throws, naming the remedy, when no entry handed one. */
export function packageRoot(): PackageRoot {
	if (root !== undefined) return root;
	if (handed === undefined)
		throw new XcshError(
			"INTERNAL",
			"pi.pi: no package root was handed to the hook loader; load hooks through xcsh-hooks, xcsh-hooks/hooks, xcsh-hooks/testing or the CLI",
		);
	root = handed();
	return root;
}
