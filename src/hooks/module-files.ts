import { extname } from "pathe";

/**
 * The one list of what a hook module file is: its extension and the Bun loader for it. The loader
 * imports these (from disk, or from approved bytes), discovery finds them (`MODULE_GLOB`), and any
 * other file in a `pre/`/`post/` folder is a shell hook.
 */
export const MODULE_LOADERS = {
	".ts": "ts",
	".mts": "ts",
	".cts": "ts",
	".tsx": "tsx",
	".js": "js",
	".mjs": "js",
	".cjs": "js",
	".jsx": "jsx",
} as const satisfies Record<string, "ts" | "tsx" | "js" | "jsx">;

type ModuleExtension = keyof typeof MODULE_LOADERS;

/** `*.{ts,mts,…}`: every module extension, for `Bun.Glob`. */
export const MODULE_GLOB = `*.{${Object.keys(MODULE_LOADERS)
	.map((ext) => ext.slice(1))
	.join(",")}}`;

/** Whether a path is a JS/TS module the loader imports (by extension; `.d.ts` never). */
export function isModulePath(path: string): boolean {
	return Object.hasOwn(MODULE_LOADERS, extname(path)) && !path.endsWith(".d.ts");
}

/** The Bun loader of a module path (`ts` when the extension is not a module's). */
export function moduleLoader(path: string): (typeof MODULE_LOADERS)[ModuleExtension] {
	return MODULE_LOADERS[extname(path) as ModuleExtension] ?? "ts";
}
