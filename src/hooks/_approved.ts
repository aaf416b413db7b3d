import { XcshError } from "../errors.ts";
import { readFileSync, realpathSync } from "node:fs";
import { homeDir } from "../paths.ts";
import { guardWorkers } from "./_approved-workers.ts";
import { isModulePath, moduleLoader } from "./module-files.ts";

/*
 * Trust approves bytes, so the modules that run must be exactly those bytes (docs/contract.md#trust): reading a file
 * again to import it would leave a window in which a swapped file runs unapproved. The approved bytes of
 * a hook and of every project file in its import graph are served to Bun's module loader by runtime
 * plugins, decoded as the UTF-8 they are (as Bun decodes a file it reads itself; a byte array would be
 * read as Latin-1, `café` becoming `cafÃ©`).
 *
 * The hook is imported with a query naming its load, so a reload never meets an older load's module.
 * The files it imports keep their plain paths (Bun resolves `./lib/policy` itself and asks no plugin
 * where it leads), so each load drops them from the module cache and the plugins serve them from the
 * latest verified bytes. Bun asks the first plugin whose filter matches, which may be an older load's:
 * every plugin therefore serves from one shared table, never from its own copy.
 *
 * Imports outside the approval are refused, with the approve command: each served module's imports are
 * resolved before it is handed to Bun (a static or literal import that now resolves to a project file
 * outside the graph, e.g. a `policy.tsx` added beside `policy.ts`), and a specifier Bun does show
 * plugins (one with an extension, also when computed at run time) is checked as it is resolved. An
 * import computed at run time without an extension is not seen: the reviewer sees it in the hook.
 * A Worker's thread is beyond the plugins: it may start only from approved, unchanged bytes
 * (./_approved-workers.ts).
 */

/** One file an approval covers, as verified at load: the bytes that were hashed, and their SHA-256. */
export interface ApprovedFile {
	bytes: Uint8Array;
	sha256: string;
}

/** Approved content of a hook file: the bytes that were hashed, and their SHA-256. */
export interface ApprovedSource {
	bytes: Uint8Array;
	sha256: string;
	/** The file's path with symlinks resolved when it was hashed (the trust key); the module is imported there. */
	realPath?: string | undefined;
	/** The other files the approval covers, as verified at load, by real path (a module's import graph). */
	files?: ReadonlyMap<string, ApprovedFile> | undefined;
	/**
	 * Checks again, before each run of a shell hook, that the files it may read from the project (those
	 * beside it) are still the approved ones; throws (failing the call closed) when one changed.
	 */
	recheck?: (() => void) | undefined;
}

/** The approval a served file belongs to: the files it covers, and the hook path that approves it. */
interface Owner {
	files: ReadonlySet<string>;
	hook: string;
}

const QUERY = "?xcsh-approved=";
let loads = 0;
/** Path as Bun loads it (a hook with its load's query, an imported file plain; a hook also plain, for Workers) → the bytes to serve and their approval. */
const served = new Map<string, { bytes: Uint8Array; owner: Owner }>();
/** Real path of a served module → its approval in the latest load (Bun names importers without the query). */
const owners = new Map<string, Owner>();
let resolving = false;

/** The graph helpers (a parser, a resolver), loaded with the first approved module: a load without one never pays for them. */
const graph = () => require("./import-graph.ts") as typeof import("./import-graph.ts");

const decoder = new TextDecoder(); // UTF-8; a BOM is dropped and invalid bytes become U+FFFD, as from disk
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The refusal of an import that reaches a project file outside the approval. */
function uncovered(importer: string, target: string, owner: Owner): Error {
	return new XcshError(
		"IMPORT_REFUSED",
		`${importer} imports ${target}, which its approval does not cover, so it fails closed; review it, then run: xcsh-hooks trust approve ${owner.hook}`,
	);
}

/** The project file `specifier` reaches from `importer` when it is covered by `owner`; throws when it is a project file outside it. */
function checkImport(specifier: string, importer: string, owner: Owner): string | undefined {
	let target: string | undefined;
	try {
		target = graph().resolveCovered(specifier, importer);
	} catch (error) {
		throw new XcshError("IMPORT_REFUSED", `${(error as Error).message}; the import is refused (fail closed)`);
	}
	if (target !== undefined && !owner.files.has(target)) throw uncovered(importer, target, owner);
	return target;
}

function load(
	path: string,
): { contents: string; loader: ReturnType<typeof moduleLoader> } | { exports: Record<string, unknown>; loader: "object" } {
	const entry = served.get(path);
	// Never fall back to the disk: a path naming no approved bytes is refused.
	if (!entry) throw new XcshError("IMPORT_REFUSED", `${path} names no approved bytes; it cannot be imported`);
	const file = path.includes(QUERY) ? path.slice(0, path.lastIndexOf(QUERY)) : path;
	const text = decoder.decode(entry.bytes);
	const parse = graph().dataParser(file);
	if (parse) {
		const value = parse(text);
		const named = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
		return { exports: { ...named, default: value }, loader: "object" };
	}
	if (isModulePath(file)) for (const specifier of graph().importsOf(file, entry.bytes, text)) checkImport(specifier, file, entry.owner);
	return { contents: text, loader: moduleLoader(file) };
}

/** Folders whose files are no project's: the user's own hooks and the system's (which approvals do not cover). */
const NOT_PROJECT = () => [`${homeDir().replace(/\/+$/, "")}/.xcsh/`, "/etc/xcsh/"];
/** The projects approved hooks came from (the folder above their `.xcsh`, `.claude`…): where an unknown Worker is refused. */
const projects = new Set<string>();

/** `path` with its links resolved, or as it is when it cannot be. */
function realOrSelf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/** The project of an approved hook: the folder holding the last hidden folder on its path (`.xcsh`; else the hook's own folder). */
function projectOf(hook: string): string {
	const parts = hook.split("/");
	const hidden = parts.findLastIndex((part, i) => i > 0 && i < parts.length - 1 && part.startsWith("."));
	return (hidden > 0 ? parts.slice(0, hidden) : parts.slice(0, -1)).join("/") || "/";
}

/**
 * Why a Worker may not start from `file` in this process (./_approved-workers.ts), or `undefined`. A
 * file an approval covers (wherever it is) starts only while every file of that approval still has its
 * approved bytes and every import in them still resolves inside the approval (the thread resolves and
 * reads them itself: a `util.tsx` added beside `util.ts` would win). Any other file of a project whose
 * hooks run here approved is refused. Elsewhere (a package, the agent's own files when it runs us
 * in-process, the user's or the system's hooks) Workers start as always.
 */
function workerRefusal(file: string): string | undefined {
	const entry = served.get(file);
	if (entry) return approvalChanged(entry.owner);
	if (!graph().isCoveredPath(file) || NOT_PROJECT().some((folder) => file.startsWith(folder))) return undefined;
	if (![...projects].some((project) => file.startsWith(project === "/" ? "/" : `${project}/`))) return undefined;
	return `${file} is a project file that no approval covers, so its bytes would run unapproved; start it with new Worker(new URL("./…", import.meta.url)) in the approved hook, whose approval then covers it, and approve that hook again`;
}

/** What of `owner`'s approval is no longer as approved on disk (a file's bytes, an import's resolution), or `undefined`. */
function approvalChanged(owner: Owner): string | undefined {
	for (const path of owner.files) {
		const approved = served.get(path)?.bytes;
		if (approved === undefined) return `${path} has no approved bytes here; run: xcsh-hooks trust approve ${owner.hook}`;
		let now: Buffer;
		try {
			now = readFileSync(path);
		} catch (error) {
			return `${path} cannot be read (${(error as Error).message}); it is part of the approval of ${owner.hook}`;
		}
		if (!now.equals(approved)) return `${path} changed since it was approved; review it, then run: xcsh-hooks trust approve ${owner.hook}`;
		if (!isModulePath(path)) continue;
		for (const specifier of graph().importsOf(path, approved)) {
			try {
				checkImport(specifier, path, owner);
			} catch (error) {
				return (error as Error).message;
			}
		}
	}
	return undefined;
}

/** Whether an approval's files name node:worker_threads (whose Worker is then guarded too; see ./_approved-workers.ts). */
function namesWorkerThreads(source: ApprovedSource): boolean {
	const names = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes("worker_threads");
	return names(source.bytes) || [...(source.files?.values() ?? [])].some((file) => names(file.bytes));
}

/**
 * Guards Workers now (./_approved-workers.ts), before any hook ran: for a process that loads hooks many
 * times (`serve`), where a first load without approved hooks could import node:worker_threads and fix
 * its module's class before a later load's approved hooks would be guarded. A no-op for Workers until
 * an approved hook loads.
 */
export function guardWorkersEarly(): void {
	guardWorkers(workerRefusal, true);
}

/** Bun shows plugins the specifiers that carry an extension: those of served modules are checked here too. */
function registerResolver(): void {
	if (resolving) return;
	resolving = true;
	Bun.plugin({
		name: "xcsh-hooks-approved-imports",
		setup(build) {
			build.onResolve({ filter: /.*/ }, (args) => {
				const owner = owners.get(args.importer);
				if (!owner) return undefined; // not an approved module: Bun resolves it as always
				const target = checkImport(args.path, args.importer, owner);
				return target === undefined ? undefined : { path: target };
			});
		},
	});
}

/**
 * Registers the approved module sources of one load, with their import graphs, and returns, per path,
 * the specifier that imports exactly those bytes. Returns an empty map (and registers nothing) when
 * there are none, so a process without an approved module pays nothing for the plugins.
 */
export function serveApprovedModules(sources: ReadonlyMap<string, ApprovedSource>, cwd?: string): Map<string, string> {
	const specifiers = new Map<string, string>();
	if (sources.size === 0) return specifiers;
	registerResolver();
	// The project the hooks were found for is a project too: a hook its settings list (`./scripts/guard.ts`)
	// has no hidden folder in its path to tell the project by.
	if (cwd !== undefined) for (const folder of new Set([cwd, realOrSelf(cwd)])) projects.add(folder.replace(/\/+$/, "") || "/");
	guardWorkers(workerRefusal, [...sources.values()].some(namesWorkerThreads));
	const query = `${QUERY}${++loads}`;
	const paths: string[] = [];
	for (const [path, source] of sources) {
		// Bun resolves a specifier through symlinks before it asks plugins: the module is imported at the
		// real path resolved when its bytes were hashed (never resolved again here: a link swapped or
		// failing to resolve now must not send the import back to the disk), so the filter always matches.
		const real = source.realPath ?? path;
		const owner: Owner = { files: new Set([real, ...(source.files?.keys() ?? [])]), hook: path };
		projects.add(projectOf(path)).add(projectOf(real));
		specifiers.set(path, real + query);
		served.set(real + query, { bytes: source.bytes, owner });
		// Under its plain path too (never imported there: the filter below names the query): what a Worker
		// started from the hook itself is compared with.
		served.set(real, { bytes: source.bytes, owner });
		owners.set(real, owner);
		paths.push(real + query);
		for (const [file, approved] of source.files ?? []) {
			served.set(file, { bytes: approved.bytes, owner });
			owners.set(file, owner);
			// Evaluated anew, from these bytes, by this load's import. The first load of a process has
			// nothing of the project cached (reading the cache costs ≈0.1 ms at start-up).
			if (loads > 1) delete require.cache[file];
			paths.push(file);
		}
	}
	const filter = new RegExp(`^(?:${paths.map(escapeRegExp).join("|")})$`);
	Bun.plugin({
		name: `xcsh-hooks-approved-${loads}`,
		setup(build) {
			build.onLoad({ filter }, (args) => load(args.path));
		},
	});
	return specifiers;
}
