import { existsSync, lstatSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "pathe";
import { SERVED_NAMES } from "../hooks/served-names.ts";
import { readRegularFile } from "../fs/regular-file.ts";
import { rootOnlyProblem } from "../fs/root-owned.ts";
import { aliasTargets, nearestTsconfig, readAliases } from "../hooks/_specifiers.ts";
import { importsOf, isCoveredPath } from "../hooks/import-graph.ts";
import { isModulePath } from "../hooks/module-files.ts";

/*
 * What a module in the system folder runs besides its own file must be root's alone too (docs/contract.md#teams): a
 * helper a user could edit is the guard edited. Every static import (`import`, `export … from`,
 * `require`, `import.meta.require` and `import()` of a literal, a Worker's entry) of the hook and of each project file it reaches is checked
 * the way a user could change what it loads:
 *
 * - a path (`./lib/policy.ts`, `/opt/team/rules.ts`): the folder as written, with every folder and
 *   symlink on the way (a link in a user's folder can be repointed), and the file it resolves to;
 * - a tsconfig `paths` alias: the tsconfig.json that maps it, then the target as a path;
 * - a package: every `node_modules` folder Bun looks in, up to the one that has it, and the file it
 *   resolves to (a package's own files are not walked: install packages as root);
 * - what Bun may resolve in ways not followed here fails closed: `#imports`, an alias through a
 *   tsconfig `extends`, a package in no `node_modules` above the hook (Bun would look in `NODE_PATH`,
 *   the user's, or install it into the user's cache), an import that names no file.
 *
 * A problem fails that hook closed (a load error: every guarded call is blocked, with the reason),
 * rather than keeping the folder from loading: a user who can make a problem (a missing file in their
 * folder, a variable) must not be able to switch the guard off with it. Imports computed at run time
 * are not seen; they are the administrator's to avoid.
 */

/** The outcome of checking one file's imports: the files it reaches, what was looked at, the first problem. */
interface FileCheck {
	imports: string[];
	problem?: string;
}

/** One check of the system folder's hooks: files and paths are looked at once, whichever hook reaches them. */
export class SystemImportCheck {
	private readonly owned = new Map<string, string | null | undefined>();
	private readonly files = new Map<string, FileCheck>();
	/** Every path whose ownership was looked at (files, folders, config files): what a watcher must watch to see a fix. */
	readonly looked = new Set<string>();
	/** The paths imports name, as written (a file created there may be what an import now reaches). */
	readonly written = new Set<string>();

	/** `rootOnlyProblem`, once per path. */
	private ownership(path: string): string | null | undefined {
		this.looked.add(path);
		if (!this.owned.has(path)) this.owned.set(path, rootOnlyProblem(path));
		return this.owned.get(path);
	}

	/** A problem of `path` being root's alone, phrased for the import that reaches it; `undefined` when it is. */
	private notRoots(path: string, via: string): string | undefined {
		const problem = this.ownership(path);
		if (problem === undefined) return undefined;
		return `${via}: ${problem ?? `${path} cannot be checked (it points nowhere)`}`;
	}

	/**
	 * Why `NODE_PATH` (the caller's environment) could lead an import of a system hook — its own or one
	 * inside a package, such as `debug`'s optional `require("supports-color")` — to a user's file: a folder
	 * in it that is not root's alone. Managed entries drop the variable before the executable starts.
	 */
	private nodePathProblem(): string | undefined {
		for (const dir of (process.env.NODE_PATH ?? "").split(":").filter(Boolean)) {
			const problem = this.ownership(resolve(dir));
			if (problem !== undefined && problem !== null)
				return `NODE_PATH names ${dir}: ${problem} (fail closed: a package found there would run in the guard)`;
		}
		return undefined;
	}

	/** Why the system module `hook` must not run, or `undefined`. */
	problemOf(hook: string): string | undefined {
		if (!isModulePath(hook)) return undefined;
		const nodePath = this.nodePathProblem();
		if (nodePath) return nodePath;
		let real: string;
		try {
			real = realpathSync(hook);
		} catch (error) {
			return `${hook} cannot be resolved (${(error as Error).message})`;
		}
		const seen = new Set([real]);
		const queue = [real];
		for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
			const check = this.check(file);
			if (check.problem) return check.problem;
			for (const next of check.imports)
				if (!seen.has(next)) {
					seen.add(next);
					queue.push(next);
				}
		}
		return undefined;
	}

	/** One file: root's alone, then each of its imports (memoized). */
	private check(file: string): FileCheck {
		const known = this.files.get(file);
		if (known) return known;
		const result: FileCheck = { imports: [] };
		this.files.set(file, result);
		const own = this.notRoots(file, file);
		if (own) {
			result.problem = own;
			return result;
		}
		if (!isModulePath(file)) return result; // data (.json, …): no imports
		let specifiers: string[];
		try {
			specifiers = importsOf(file, readRegularFile(file));
		} catch (error) {
			result.problem = `${file} cannot be read (${(error as Error).message})`;
			return result;
		}
		for (const specifier of specifiers) {
			const edge = this.resolveEdge(specifier, file);
			if (typeof edge === "object") {
				result.problem = edge.problem;
				return result;
			}
			if (edge !== undefined && isCoveredPath(edge)) result.imports.push(edge);
		}
		return result;
	}

	/** The real file `specifier` loads from `importer` (checked), `undefined` for a builtin or a served name, or the problem. */
	private resolveEdge(specifier: string, importer: string): string | undefined | { problem: string } {
		const via = `${importer} imports ${JSON.stringify(specifier)}`;
		const bare = specifier.replace(/[?#].*$/, "");
		if (/^(?:node|bun):/.test(specifier) || SERVED_NAMES.has(bare)) return undefined;
		if (specifier.startsWith("#")) return { problem: `${via}, a package.json import, which is not checked (fail closed)` };
		const from = dirname(importer);
		if (/^\.\.?(?:\/|$)/.test(specifier) || specifier.startsWith("/") || specifier.startsWith("file:")) {
			let path = bare;
			try {
				if (specifier.startsWith("file:")) path = Bun.fileURLToPath(specifier);
			} catch {
				return { problem: `${via}, a file URL that names no path (fail closed)` };
			}
			return this.pathEdge(path, from, via) as string | { problem: string };
		}
		if ((require("node:module") as typeof import("node:module")).isBuiltin(bare)) return undefined;
		// The executable is built without tsconfig autoload: it applies no alias at run time, so neither does the check.
		const config = Bun.isStandaloneExecutable ? undefined : this.tsconfigOf(from);
		if (config) {
			const problem = this.notRoots(config.file, `${via} (aliases from ${config.file})`);
			if (problem) return { problem };
			if (config.extends)
				return { problem: `${via}, with ${config.file} extending another config, whose aliases are not checked (fail closed)` };
			for (const target of config.targets(bare)) {
				const edge = this.pathEdge(target, config.base, via, true);
				if (edge !== null) return edge;
			}
		}
		return this.packageEdge(bare, from, via);
	}

	/** A path import: the folder it names as written, then the real file; `null` (with `quiet`) when nothing is there. */
	private pathEdge(path: string, from: string, via: string, quiet = false): string | { problem: string } | null {
		const written = resolve(from, path);
		this.written.add(written);
		// An alias target whose folder is not there names nothing (the next target, or a package, is tried).
		if (quiet && this.ownership(dirname(written)) === null) return null;
		const folder = this.notRoots(dirname(written), via);
		if (folder) return { problem: folder };
		let real: string;
		try {
			real = realpathSync(Bun.resolveSync(written, from));
		} catch {
			if (quiet) return null;
			return { problem: `${via}, which names no file (fail closed: whoever may create it there would write the guard)` };
		}
		const file = this.notRoots(real, via);
		return file ? { problem: file } : real;
	}

	/** A package: each `node_modules` folder Bun looks in must be root's, up to the one holding it; then the file it resolves to. */
	private packageEdge(specifier: string, from: string, via: string): string | { problem: string } {
		const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string);
		for (let dir = from; ; dir = dirname(dir)) {
			const modules = join(dir, "node_modules");
			this.looked.add(modules);
			if (lstatSync(modules, { throwIfNoEntry: false })) {
				const problem = this.notRoots(modules, via);
				if (problem) return { problem };
				if (existsSync(join(modules, name))) {
					let real: string;
					try {
						real = realpathSync(Bun.resolveSync(specifier, from));
					} catch (error) {
						return { problem: `${via}, which does not resolve (${(error as Error).message})` };
					}
					const file = this.notRoots(real, via);
					return file ? { problem: file } : real;
				}
			}
			if (dirname(dir) === dir) break;
		}
		return { problem: `${via}, a package installed in no node_modules folder above it (fail closed: install it there as root)` };
	}

	/** The nearest tsconfig at or above `dir`, read afresh (root may edit it while a server runs), with its aliases. */
	private tsconfigOf(dir: string): { file: string; base: string; extends: boolean; targets(name: string): string[] } | undefined {
		const file = nearestTsconfig(dir);
		if (file === undefined) return undefined;
		this.looked.add(file);
		const aliases = readAliases(file) ?? { base: dirname(file), paths: [], baseUrl: false, extends: false };
		return { file, base: aliases.base, extends: aliases.extends, targets: (specifier) => aliasTargets(specifier, aliases) };
	}
}
