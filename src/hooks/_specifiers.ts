import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "pathe";
import { SERVED_NAMES } from "./served-names.ts";

/*
 * Which import specifiers can name a project file, and as what path-like specifier to resolve them.
 * A package name is never handed to Bun's resolver here: where no `node_modules` is found, Bun's
 * resolver installs the package from the registry (a network fetch, ~100 ms, of a name a cloned
 * repository chose). So only paths are resolved — relative, absolute, `file:` URLs — and the bare
 * names a `tsconfig.json`/`jsconfig.json` maps to paths (`compilerOptions.paths`, `baseUrl`), which Bun
 * applies before packages. Not followed: a tsconfig's `extends`, and package.json `#imports`; such
 * names count as packages.
 */

/** What a tsconfig's `paths` and `baseUrl` map. */
export interface Aliases {
	/** The folder targets resolve against (`baseUrl`, else the tsconfig's own folder). */
	base: string;
	/** Pattern (`@/*`, `~policy`) → target patterns. */
	paths: Array<[string, string[]]>;
	/** With `baseUrl`, every bare name may also be a path below it. */
	baseUrl: boolean;
}

const aliasCache = new Map<string, Aliases | undefined>();

/** The nearest tsconfig.json (or jsconfig.json) at or above `dir`, or `undefined`. Read afresh on every call. */
export function nearestTsconfig(dir: string): string | undefined {
	for (let at = dir; ; at = dirname(at)) {
		const file = ["tsconfig.json", "jsconfig.json"].map((name) => join(at, name)).find((path) => existsSync(path));
		if (file || dirname(at) === at) return file;
	}
}

/** What the tsconfig `file` maps, and whether it `extends` another; nothing for a file Bun cannot read (it maps nothing either). */
export function readAliases(file: string): (Aliases & { extends: boolean }) | undefined {
	try {
		const config = Bun.JSONC.parse(readFileSync(file, "utf8")) as { extends?: unknown; compilerOptions?: Record<string, unknown> } | null;
		const options = config?.compilerOptions ?? {};
		const baseUrl = typeof options.baseUrl === "string" ? options.baseUrl : undefined;
		const paths = options.paths && typeof options.paths === "object" ? Object.entries(options.paths as Record<string, unknown>) : [];
		return {
			base: resolve(dirname(file), baseUrl ?? "."),
			paths: paths.map(([key, targets]) => [key, Array.isArray(targets) ? targets.filter((t) => typeof t === "string") : []]),
			baseUrl: baseUrl !== undefined,
			extends: config?.extends !== undefined,
		};
	} catch {
		return undefined;
	}
}

/** The path aliases of the nearest tsconfig.json (or jsconfig.json) at or above `dir` (cached per folder). */
function aliasesFor(dir: string): Aliases | undefined {
	if (aliasCache.has(dir)) return aliasCache.get(dir);
	const file = nearestTsconfig(dir);
	const found = file === undefined ? undefined : readAliases(file);
	aliasCache.set(dir, found);
	return found;
}

/** The relative specifiers a bare name may stand for through `aliases`, in the order they are tried. */
export function aliasTargets(specifier: string, aliases: Aliases): string[] {
	const targets: string[] = [];
	for (const [pattern, to] of aliases.paths) {
		const star = pattern.indexOf("*");
		const prefix = star < 0 ? pattern : pattern.slice(0, star);
		const suffix = star < 0 ? "" : pattern.slice(star + 1);
		const matches =
			star < 0
				? specifier === pattern
				: specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length;
		if (!matches) continue;
		const middle = star < 0 ? "" : specifier.slice(prefix.length, specifier.length - suffix.length);
		for (const target of to) targets.push(target.replace("*", middle));
	}
	if (aliases.baseUrl) targets.push(specifier);
	return targets.map((target) => (isAbsolute(target) || target.startsWith(".") ? target : `./${target}`));
}

/** What a specifier may resolve to on disk: the path-like specifiers to try and the folder they resolve from. */
export type Candidates =
	| { kind: "path"; specifier: string; from: string }
	| { kind: "alias"; specifiers: string[]; from: string }
	| { kind: "none" };

/** How `specifier`, imported from `importer`, can name a file: a path, a tsconfig alias, or nothing (a builtin, a package). */
export function specifierCandidates(specifier: string, importer: string): Candidates {
	if (/^\.\.?(?:\/|$)/.test(specifier) || specifier.startsWith("/")) return { kind: "path", specifier, from: dirname(importer) };
	if (specifier.startsWith("file:")) {
		try {
			return { kind: "path", specifier: Bun.fileURLToPath(specifier), from: "/" };
		} catch {
			return { kind: "none" };
		}
	}
	if (/^(?:node|bun):|^#/.test(specifier)) return { kind: "none" };
	// Served by the executable before any alias applies: `init`'s tsconfig maps these to .d.ts files for editors.
	if (SERVED_NAMES.has(specifier)) return { kind: "none" };
	const aliases = aliasesFor(dirname(importer));
	if (!aliases) return { kind: "none" };
	// Bun takes a builtin (`fs`) before any alias; node:module is loaded only where aliases exist.
	if ((require("node:module") as typeof import("node:module")).isBuiltin(specifier)) return { kind: "none" };
	const specifiers = aliasTargets(specifier, aliases);
	return specifiers.length > 0 ? { kind: "alias", specifiers, from: aliases.base } : { kind: "none" };
}
