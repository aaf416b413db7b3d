import { moduleLoader } from "./module-files.ts";

/*
 * Trust approves bytes, so the module that runs must be exactly those bytes (SPEC §10): reading
 * the file again to import it would leave a window in which a swapped file runs unapproved. The
 * approved bytes are served to Bun's module loader by a runtime plugin for one load: each approved
 * path is imported with a query naming that load, and only those specifiers match the plugin, so
 * nothing else is intercepted and a reload (a new load) never meets an older load's bytes. The
 * module keeps its own path, so its relative imports resolve as they would from disk.
 */

/** Approved content of a hook file: the bytes that were hashed, and their SHA-256. */
export interface ApprovedSource {
	bytes: Uint8Array;
	sha256: string;
	/** The file's path with symlinks resolved when it was hashed (the trust key); the module is imported there. */
	realPath?: string | undefined;
}

let loads = 0;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Registers the approved module sources of one load and returns, per path, the specifier that
 * imports exactly those bytes. Returns an empty map (and registers nothing) when there are none.
 */
export function serveApprovedModules(sources: ReadonlyMap<string, ApprovedSource>): Map<string, string> {
	const specifiers = new Map<string, string>();
	if (sources.size === 0) return specifiers;
	const query = `?xcsh-approved=${++loads}`;
	const byPath = new Map<string, ApprovedSource>();
	for (const [path, source] of sources) {
		// Bun resolves a specifier through symlinks before it asks plugins: the module is imported at the
		// real path resolved when its bytes were hashed (never resolved again here: a link swapped or
		// failing to resolve now must not send the import back to the disk), so the filter always matches.
		const real = source.realPath ?? path;
		specifiers.set(path, real + query);
		byPath.set(real, source);
	}
	const filter = new RegExp(`^(?:${[...byPath.keys()].map(escapeRegExp).join("|")})${escapeRegExp(query)}$`);
	Bun.plugin({
		name: `xcsh-hooks-approved-${loads}`,
		setup(build) {
			build.onLoad({ filter }, (args) => {
				const path = args.path.endsWith(query) ? args.path.slice(0, -query.length) : args.path;
				const source = byPath.get(path) as ApprovedSource;
				return { contents: source.bytes, loader: moduleLoader(path) };
			});
		},
	});
	return specifiers;
}
