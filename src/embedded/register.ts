import { handPackageRoot, type PackageRoot } from "../hooks/package-root.ts";
import { LIBRARY_MODULES, PACKAGE_MODULES } from "./modules.ts";

let registered = false;

/**
 * Run from source (`bun src/cli.ts`), a bare specifier is resolved at run time and would come back
 * to the virtual module being defined (endless recursion), so the package is required by its file
 * path: the file the CLI's own imports resolved to, hence the same instance. Synchronously: from
 * source, the CLI's own lazy `require`s of TypeBox (validate.ts) pass through this plugin too, and a
 * `require` cannot meet an async module. In the executable the bundler has already resolved the
 * literal specifier to the embedded copy, which loads as its own chunk.
 */
function fromDisk(specifier: string): () => Record<string, unknown> {
	return () => require(Bun.resolveSync(specifier, import.meta.dir));
}

/**
 * Makes every module loaded from now on — hook files and what they import — resolve the names of
 * {@link LIBRARY_MODULES} and {@link PACKAGE_MODULES} to the copies inside this program, with no
 * `node_modules` anywhere. Costs nothing at start-up: a module is built on its first import.
 * Calling it again does nothing. `bundled` says whether this code runs from a bundle (default: from
 * the compiled executable) or from source.
 */
export function registerEmbeddedModules(options: { bundled?: boolean } = {}): void {
	if (registered) return;
	registered = true;
	// `pi.pi` is the same package root `import "xcsh-hooks"` gets, required when a hook first reads it.
	handPackageRoot(() => require("../index.ts") as PackageRoot);
	// Bundled: the loaders' literal specifiers were resolved by the bundler. Our plugin runtime inside an
	// agent passes it explicitly, since the agent's own executable is standalone whichever copy runs.
	const standalone = options.bundled ?? Bun.isStandaloneExecutable;
	Bun.plugin({
		name: "xcsh-hooks-embedded",
		setup(build) {
			for (const [specifier, load] of Object.entries(LIBRARY_MODULES))
				build.module(specifier, async () => ({ exports: await load(), loader: "object" }));
			for (const [specifier, load] of Object.entries(PACKAGE_MODULES)) {
				if (standalone) build.module(specifier, async () => ({ exports: await load(), loader: "object" }));
				else build.module(specifier, () => ({ exports: fromDisk(specifier)(), loader: "object" }));
			}
		},
	});
}
