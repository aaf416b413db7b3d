import { XcshError } from "../errors.ts";
import { realpathSync } from "node:fs";
import { extname, isAbsolute } from "pathe";
import { readRegularFile } from "../fs/regular-file.ts";
import { specifierCandidates } from "./_specifiers.ts";
import { isModulePath, moduleLoader } from "./module-files.ts";

/*
 * What a module hook runs besides its own file (docs/contract.md#trust): every file of the project — any file
 * outside a `node_modules` folder — that its imports reach, statically (`import`, `export … from`,
 * `require("…")`, `import.meta.require("…")`, `import("…")` with a literal, a Worker's entry). Packages
 * (imported by name, or found in `node_modules`) are dependencies, not the hook's source, and are not covered. An approval hashes the whole graph; a load re-verifies it and the
 * approved-bytes plugin (./_approved.ts) serves every file of it from the verified bytes, and
 * refuses an import that reaches a project file outside it (a computed `import(path)`, a file that now
 * wins the resolution).
 */

/** Data files a hook may import, parsed from approved bytes as Bun parses them from disk. */
const DATA_PARSERS: Record<string, (text: string) => unknown> = {
	".json": (text) => JSON.parse(text),
	".jsonc": (text) => Bun.JSONC.parse(text),
	".toml": (text) => Bun.TOML.parse(text),
	".yaml": (text) => Bun.YAML.parse(text),
	".yml": (text) => Bun.YAML.parse(text),
};

/** More files than this in one hook's graph is not something a person reviewed: approval refuses it. */
export const MAX_GRAPH_FILES = 1000;

/** The parser of a data file the approved-bytes loader can serve, or `undefined`. */
export function dataParser(path: string): ((text: string) => unknown) | undefined {
	return DATA_PARSERS[extname(path)];
}

/** Whether the approved-bytes loader can serve `path` (a JS/TS module or a data file it parses). */
export function isServable(path: string): boolean {
	return isModulePath(path) || dataParser(path) !== undefined;
}

/** Whether a resolved path is the project's own file: on disk, outside every `node_modules` folder. */
export function isCoveredPath(path: string): boolean {
	return isAbsolute(path) && !path.split("/").includes("node_modules");
}

/** Resolves a path-like specifier from `from` (never a package name, so never an install), without a query or fragment. */
function resolvePathLike(specifier: string, from: string): string {
	// A query or fragment selects nothing on disk: the file is the same.
	return Bun.resolveSync(specifier, from).replace(/[?#].*$/, "");
}

/** The covered real path of `file`, or `undefined` when it is not covered. */
function covered(file: string): string | undefined {
	if (!isCoveredPath(file)) return undefined;
	try {
		return realpathSync(file);
	} catch {
		return file;
	}
}

/**
 * The real path of the file `specifier` names from `importer`, when it is covered ({@link isCoveredPath});
 * `undefined` for a builtin, a package (also one in no `node_modules`: the library's own names are
 * served by the executable), or a tsconfig alias that names no file. Package names are never resolved
 * (./_specifiers.ts). A relative or absolute specifier that does not resolve throws: it can only
 * name a project file, and one nobody hashed.
 */
export function resolveCovered(specifier: string, importer: string): string | undefined {
	const candidates = specifierCandidates(specifier, importer);
	if (candidates.kind === "none") return undefined;
	if (candidates.kind === "path") {
		try {
			return covered(resolvePathLike(candidates.specifier, candidates.from));
		} catch (error) {
			throw new XcshError("IMPORT_REFUSED", `cannot resolve ${JSON.stringify(specifier)} from ${importer}: ${(error as Error).message}`);
		}
	}
	for (const target of candidates.specifiers) {
		try {
			return covered(resolvePathLike(target, candidates.from));
		} catch {}
	}
	return undefined;
}

const transpilers = new Map<string, InstanceType<typeof Bun.Transpiler>>();

/** The specifiers a module's code imports (type-only imports are not imports). A file that does not parse has none: it cannot load either. */
export function importsOf(path: string, bytes: Uint8Array, text = new TextDecoder().decode(bytes)): string[] {
	// Every import form names one of these words; code with none (a hook using only `pi`) needs no parser.
	if (!/\b(?:import|require|from|Worker)\b/.test(text)) return [];
	const loader = moduleLoader(path);
	let transpiler = transpilers.get(loader);
	if (!transpiler) {
		transpiler = new Bun.Transpiler({ loader });
		transpilers.set(loader, transpiler);
	}
	let found: string[];
	try {
		found = transpiler.scanImports(text).map((i) => i.path);
	} catch {
		return [];
	}
	if (!/\bimport\.meta\.require\b|\bcreateRequire\b|\bWorker\b/.test(text)) return found;
	// Read without its comments (a commented-out Worker names nothing the module runs).
	let code = text;
	try {
		code = transpiler.transformSync(text);
	} catch {}
	return [...found, ...loadsBeyondImports(code)];
}

/**
 * The modules code loads that Bun's import scanner does not list: `import.meta.require("…")`,
 * `createRequire(import.meta.url)("…")`, and the entry of a Worker — `new Worker(new URL("…",
 * import.meta.url))`, or `new Worker("…")` (a relative one Bun resolves from the working directory,
 * read here from the module's folder, where its author keeps it; a Worker started from a file that no
 * approval covers is refused at run time, see ./_approved-workers.ts). Literals only, in the code the
 * transpiler leaves (no comments, no types).
 */
function loadsBeyondImports(text: string): string[] {
	return LOADS_BEYOND_IMPORTS.flatMap((form) => [...text.matchAll(form)].map((match) => match[2] as string));
}

/** The forms of {@link loadsBeyondImports}: group 2 of each match is the literal. */
const LOADS_BEYOND_IMPORTS = (() => {
	const literal = String.raw`(["'\`])([^"'\`$\n]+)\1`;
	const worker = String.raw`\bnew\s+(?:[\w$]+\s*\.\s*)*Worker\s*\(\s*`; // also `new wt.Worker (`, `new globalThis.Worker(`
	return [
		new RegExp(String.raw`\bimport\.meta\.require\s*\(\s*${literal}\s*\)`, "g"),
		new RegExp(String.raw`\bcreateRequire\s*\(\s*import\.meta\.url\s*\)\s*\(\s*${literal}`, "g"),
		new RegExp(String.raw`${worker}new\s+URL\s*\(\s*${literal}\s*,\s*import\.meta\.url\s*\)`, "g"),
		new RegExp(`${worker}${literal}`, "g"),
	];
})();

/** Why an import graph cannot be approved: a file approval could not serve, or too many files. */
const graphError = (message: string) => new XcshError("IMPORT_GRAPH", message);

/**
 * Every covered file the module `root` (content `rootBytes`) reaches through its imports, by real path,
 * each read once (the root itself excluded). With `served` (a hook the approved-bytes loader will
 * import), a file it could not serve from its bytes (a `.txt`, a `.wasm`, a native addon) is an
 * `XcshError` `IMPORT_GRAPH`; without (a script an agent entry runs from disk), such a file is hashed as
 * is. A graph past {@link MAX_GRAPH_FILES} is an `IMPORT_GRAPH` error; a file that is not a regular file
 * is an `XcshError` `NOT_A_REGULAR_FILE` (src/fs/regular-file.ts).
 */
export function importGraph(root: string, rootBytes: Uint8Array, served = true): Map<string, Uint8Array> {
	const files = new Map<string, Uint8Array>();
	const seen = new Set([root]);
	const queue: Array<[string, Uint8Array]> = [[root, rootBytes]];
	for (let next = queue.shift(); next; next = queue.shift()) {
		const [path, bytes] = next;
		for (const specifier of importsOf(path, bytes)) {
			let target: string | undefined;
			try {
				target = resolveCovered(specifier, path);
			} catch {
				continue; // a missing file: the import fails at load, and a file created later is refused then
			}
			if (target === undefined || seen.has(target)) continue;
			seen.add(target);
			if (served && !isServable(target))
				throw graphError(
					`${path} imports ${target}, which cannot be run from approved bytes (only JS/TS modules and .json, .jsonc, .toml, .yaml files); import it from a module, or make this a user-level hook`,
				);
			if (files.size >= MAX_GRAPH_FILES)
				throw graphError(`${root} imports more than ${MAX_GRAPH_FILES} project files; approval covers at most that many`);
			const content = readRegularFile(target);
			files.set(target, content);
			if (isModulePath(target)) queue.push([target, content]);
		}
	}
	return files;
}
