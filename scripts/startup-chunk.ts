/**
 * A bundler plugin that gives the executable few chunks on the paths that are timed (SPEC §11): every
 * module `src/cli.ts` imports statically — each start-up, and all a served `bridge` call loads — in
 * the entry's chunk, and each group of lazy roots (what a cold `bridge` call imports) with all it
 * imports in one chunk of its own.
 *
 * Bun's code splitting gives each set of entry points (the entry and every `import()` target) that
 * reach a module a chunk of its own: a module the entry imports and a lazy command imports too lands
 * in a chunk apart. The start-up graph was 29 chunks (26 KB in all), a cold bridge call 69; each chunk
 * costs a compiled executable ≈30 µs to load (28 one-function chunks added 0.8–1.2 ms to a process),
 * and Bun evaluates a split-off chunk before the entry's own modules that come earlier in import order.
 *
 * So, in the build only, a group's members are imported as they are only by members of the group
 * (and the entry, for the first group); any other import of a member, and any `import()` of one, gets
 * a stand-in that re-exports the member's bindings. The group's door imports every member with
 * `import * as`, depth first in import order, so modules evaluate as they would unbundled:
 * - the first group's door is the entry's first import, and keeps the namespaces in a registry the
 *   stand-ins read (importing the door from a lazy chunk would take it out of the entry's chunk);
 * - a later group's door exports them, and its stand-ins import them by name (a binding the bundler
 *   orders; a bare import across chunks it may evaluate late).
 * Members are then reached through their door alone, and Bun keeps each group in one chunk. A
 * stand-in copies bindings when it is evaluated: a member imported through one must export no binding
 * it reassigns later (`export let`), which the build checks. From source (`bun src/cli.ts`) none of
 * this exists: modules are shared as usual. A group's door evaluates all its members at the first
 * import of any of them: the cold bridge group is what that call loads anyway.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative } from "pathe";

/** Where the first group's namespaces are kept for its stand-ins. */
const REGISTRY = 'globalThis[Symbol.for("xcsh-hooks.startup-modules")]';
const REGISTRY_MODULE = "xcsh-hooks-module-group";
const STAND_IN = "xcsh-startup-stand-in";

/** `code` without a leading `#!` line (the transpiler refuses it). */
function withoutShebang(code: string): string {
	return code.startsWith("#!") ? code.slice(code.indexOf("\n") + 1) : code;
}

/** A script or module file the transpiler reads (else JSON, whose keys are its exports). */
function isScript(path: string): boolean {
	return /\.[mc]?[jt]sx?$/.test(path);
}

/**
 * The modules `entry` imports statically, in the order they are evaluated (depth first, by import
 * order), resolved as the bundler resolves them — files by absolute path, and the runtime's own
 * modules (`node:fs`, `bun:ffi`) by name; `leaves` are read as having no imports (another plugin
 * replaces their contents).
 */
export function startupGraph(entry: string, leaves: ReadonlySet<string> = new Set()): string[] {
	const transpiler = new Bun.Transpiler({ loader: "tsx" });
	const order: string[] = [];
	const seen = new Set<string>();
	const visit = (file: string) => {
		if (seen.has(file)) return;
		seen.add(file);
		if (isAbsolute(file) && isScript(file) && !leaves.has(file)) {
			for (const { kind, path } of transpiler.scanImports(withoutShebang(readFileSync(file, "utf8")))) {
				if (kind !== "import-statement") continue;
				visit(builtin(path) ? path : Bun.resolveSync(path, dirname(file)));
			}
		}
		order.push(file);
	};
	visit(entry);
	return order;
}

/** A module of the runtime itself: never bundled, never a member of a group. */
function builtin(specifier: string): boolean {
	return /^(node|bun):/.test(specifier) || specifier === "bun";
}

/** The names `file` exports (a JSON file: `default` and each key that is a name). */
function exportedNames(file: string, contents: string): string[] {
	if (!isScript(file)) {
		const value = JSON.parse(contents) as unknown;
		const keys = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
		return ["default", ...keys.filter((key) => /^[A-Za-z_$][\w$]*$/.test(key))];
	}
	if (/^\s*export\s+(let|var)\s/m.test(contents))
		throw new Error(`${file}: a start-up module exports a binding it may reassign (export let/var), which the stand-ins would copy stale`);
	if (/^\s*export\s*\*\s*from/m.test(contents))
		throw new Error(`${file}: a start-up module re-exports with export *, whose names the stand-ins cannot list`);
	return new Bun.Transpiler({ loader: file.endsWith("x") ? "tsx" : "ts" }).scan(withoutShebang(contents)).exports;
}

/** `import * as m<i>` of each of `members`, in order. */
function namespaceImports(members: readonly string[]): string[] {
	return members.map((file, i) => `import * as m${i} from ${JSON.stringify(file)};`);
}

/** The registry's entries for `members` (imported by {@link namespaceImports}), named by `key`. */
function registryEntries(members: readonly string[], key: (file: string) => string): string {
	return `{ ${members.map((file, i) => `${JSON.stringify(key(file))}: m${i}`).join(", ")} }`;
}

/** Modules that load together: the modules that import them from outside do so through stand-ins. */
interface Group {
	/** The module that imports every member (first in the entry for the first group, else by each stand-in). */
	door: string;
	members: string[];
}

/**
 * The groups of the build of `entry`: its start-up graph, then, for each list of `lazy` roots, the
 * modules they import statically that no earlier group holds (each root is an `import()` target).
 */
function groupsOf(entry: string, lazy: readonly (readonly string[])[], leaves: ReadonlySet<string>): Group[] {
	const taken = new Set<string>([entry]);
	const roots = [[entry], ...lazy];
	return roots.map((list, i) => {
		const members: string[] = [];
		for (const file of list.flatMap((root) => startupGraph(root, leaves)))
			if (isAbsolute(file) && !taken.has(file)) {
				taken.add(file);
				members.push(file);
			}
		return { door: `${REGISTRY_MODULE}:${i}`, members };
	});
}

/**
 * The plugin for the build of `entry` (see the module note): the start-up graph in the entry's chunk
 * and each list of `lazy` roots with what it imports in one chunk of its own; `root` names the modules
 * in the registry; `leaves` are files another plugin replaces by contents that import nothing.
 */
export function startupChunk(
	entry: string,
	root: string,
	lazy: readonly (readonly string[])[],
	leaves: ReadonlySet<string>,
): Bun.BunPlugin {
	const groups = groupsOf(entry, lazy, leaves);
	const groupOf = new Map<string, number>();
	for (const [i, group] of groups.entries()) for (const file of group.members) groupOf.set(file, i);
	// The entry imports the first group's members as they are.
	const groupOfImporter = (file: string) => (file === entry ? 0 : groupOf.get(file));
	const key = (file: string) => relative(root, file);
	const byKey = new Map([...groupOf.keys()].map((file) => [key(file), file]));
	const doors = new Map(groups.map((group) => [group.door, group]));
	return {
		name: "xcsh-hooks-startup-chunk",
		setup(build) {
			build.onResolve({ filter: /.*/ }, (args) => {
				if (doors.has(args.path)) return { path: args.path, namespace: REGISTRY_MODULE };
				// A door imports its members themselves (by absolute path).
				if (doors.has(args.importer)) return { path: args.path };
				if (!isAbsolute(args.importer) || builtin(args.path)) return undefined;
				let resolved: string;
				try {
					resolved = Bun.resolveSync(args.path, dirname(args.importer));
				} catch {
					return undefined; // the bundler says what is wrong
				}
				const group = groupOf.get(resolved);
				// A member of the same group is imported as it is; from elsewhere, or by `import()` (an entry
				// point of its own for the bundler), through its stand-in.
				if (group === undefined || (groupOfImporter(args.importer) === group && args.kind !== "dynamic-import")) return undefined;
				// Not the file's own path: the bundler keeps one module per path, whatever the namespace.
				return { path: `${STAND_IN}:${key(resolved)}`, namespace: STAND_IN };
			});
			build.onLoad({ filter: /.*/, namespace: REGISTRY_MODULE }, (args) => {
				const group = doors.get(args.path) as Group;
				const imports = namespaceImports(group.members);
				// The entry's group is kept in a registry (importing this module from a lazy chunk would take it
				// out of the entry's chunk); a later group's stand-ins import its namespaces by name, which the
				// bundler orders as a binding (a bare import across chunks it may evaluate late).
				const fill =
					group === groups[0]
						? `${REGISTRY} = ${registryEntries(group.members, key)};`
						: `export { ${group.members.map((_, i) => `m${i}`).join(", ")} };`;
				return { loader: "js", contents: [...imports, fill].join("\n") };
			});
			build.onLoad({ filter: /.*/, namespace: STAND_IN }, (args) => {
				const file = byKey.get(args.path.slice(STAND_IN.length + 1)) as string;
				const names = exportedNames(file, readFileSync(file, "utf8"));
				const named = names.filter((name) => name !== "default");
				// A local name no module exports (pathe's shared chunk exports one-letter names).
				const local = "__xcshStartupModule";
				const group = groups[groupOf.get(file) ?? 0] as Group;
				const name = JSON.stringify(key(file));
				const lines =
					group === groups[0]
						? [
								`const ${local} = ${REGISTRY}?.[${name}];`,
								`if (${local} === undefined) throw new Error("the executable's module " + ${name} + " was read before the entry registered it (scripts/startup-chunk.ts)");`,
							]
						: [`import { m${group.members.indexOf(file)} as ${local} } from ${JSON.stringify(group.door)};`];
				if (named.length > 0) lines.push(`export const { ${named.join(", ")} } = ${local};`);
				if (names.includes("default")) lines.push(`export default ${local}.default;`);
				return { loader: "js", contents: lines.join("\n") };
			});
			// The entry's first import fills the registry, evaluating the start-up graph in its own order.
			build.onLoad({ filter: /\.ts$/ }, (args) => {
				if (args.path !== entry) return undefined;
				const code = readFileSync(entry, "utf8");
				const shebang = code.startsWith("#!") ? code.slice(0, code.indexOf("\n") + 1) : "";
				return { loader: "ts", contents: `${shebang}import ${JSON.stringify(groups[0]?.door)};\n${code.slice(shebang.length)}` };
			});
		},
	};
}

/**
 * A module of its own that fills the first group's registry, for a process that loads the executable's
 * chunks without its entry: the `bun test` that `xcsh-hooks test` starts imports the library's chunks
 * copied out of the executable (src/cli/_served-library.ts), whose stand-ins read the registry. It
 * holds its own copy of the members (that process never runs the entry), less those that export
 * nothing — the start guard, whose checks belong to the CLI's start-up. `plugins` are the build's own
 * (the same replaced contents).
 */
export async function registryCopy(entry: string, root: string, leaves: ReadonlySet<string>, plugins: Bun.BunPlugin[]): Promise<string> {
	const members = (groupsOf(entry, [], leaves)[0]?.members ?? []).filter(
		(file) => exportedNames(file, readFileSync(file, "utf8")).length > 0,
	);
	const name = `${REGISTRY_MODULE}-copy`;
	const result = await Bun.build({
		entrypoints: [name],
		target: "bun",
		format: "esm",
		minify: true,
		throw: false,
		plugins: [
			...plugins,
			{
				name,
				setup(build) {
					build.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, namespace: name }));
					build.onLoad({ filter: /.*/, namespace: name }, () => ({
						loader: "js",
						contents: [...namespaceImports(members), `${REGISTRY} ??= ${registryEntries(members, (file) => relative(root, file))};`].join(
							"\n",
						),
					}));
				},
			},
		],
	});
	const output = result.outputs[0];
	if (!result.success || !output) throw new Error(`the start-up modules' registry copy failed:\n${result.logs.map(String).join("\n")}`);
	return output.text();
}
