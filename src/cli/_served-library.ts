import { XcshError } from "../errors.ts";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "pathe";
import { LIBRARY_MODULES, PACKAGE_MODULES } from "../embedded/index.ts";

/** Where the compiled executable keeps its bundled files. */
const BUNFS = "/$bunfs/root/";
const BUNFS_IMPORT = /import\(\s*["'](\/\$bunfs\/root\/[^"']+)["']\s*\)/;

/**
 * A preload for `bun test` that resolves `xcsh-hooks`, `xcsh-hooks/hooks`, `xcsh-hooks/testing`,
 * the seed's name and `@sinclair/typebox*` to this program's own copy of the library, written to
 * `dir` (a private temp dir) after `prelude` (code that must run before anything else); resolves the
 * preload's path.
 *
 * Run from source, the preload calls the same registration the CLI does. In the compiled executable
 * the library lives in `/$bunfs`, which the executable cannot read once it runs as Bun
 * (`BUN_BE_BUN=1`): its chunks are copied out first, their `/$bunfs` imports pointed at the copies,
 * and each specifier is mapped to the chunk its loader imports (read from the loader's own code,
 * then checked to be the very module the loader gives).
 */
export async function writeTestPreload(dir: string, prelude = ""): Promise<string> {
	const preload = join(dir, "preload.ts");
	// `prelude` runs first (the trust gate); tests that start `xcsh-hooks` must get the CLI, not Bun again.
	const header = `${prelude}delete process.env.BUN_BE_BUN;\n`;
	if (!Bun.isStandaloneExecutable) {
		const register = resolve(import.meta.dir, "..", "embedded", "index.ts");
		writeFileSync(
			preload,
			`${header}const { registerEmbeddedModules } = await import(${JSON.stringify(register)});\nregisterEmbeddedModules();\n`,
		);
		return preload;
	}
	const lib = join(dir, "lib");
	mkdirSync(lib);
	for (const name of readdirSync(BUNFS)) {
		// The shell guard's parser reads its WebAssembly beside its chunk (see guards/parser.ts).
		if (name.endsWith(".wasm")) writeFileSync(join(lib, name), readFileSync(BUNFS + name));
		if (!name.endsWith(".js")) continue; // the entry point (the CLI itself) and text assets are not needed
		const code = readFileSync(BUNFS + name, "utf8")
			.replace(/^\/\/ @bun @bytecode/, "// @bun") // the bytecode stays inside the executable
			.replaceAll(`"${BUNFS}`, `"./`);
		writeFileSync(join(lib, name), code);
	}
	const map: Record<string, string> = {};
	for (const [specifier, load] of Object.entries({ ...LIBRARY_MODULES, ...PACKAGE_MODULES })) {
		const chunk = BUNFS_IMPORT.exec(load.toString())?.[1];
		if (!chunk || (await import(chunk)) !== (await load()))
			throw new XcshError(
				"COMMAND_FAILED",
				`cannot find the embedded copy of ${specifier} in this executable; run the tests with bun test and the xcsh-hooks package instead`,
			);
		map[specifier] = join(lib, chunk.slice(BUNFS.length));
	}
	writeFileSync(
		preload,
		`${header}const modules = ${JSON.stringify(map, null, "\t")};
Bun.plugin({
	name: "xcsh-hooks-embedded",
	setup(build) {
		for (const [specifier, file] of Object.entries(modules))
			build.module(specifier, async () => ({ exports: await import(file), loader: "object" }));
	},
});
`,
	);
	return preload;
}
