/**
 * The declarations hook authors' editors read with nothing installed: `xcsh-hooks types` and
 * `init` write them into a types folder (default `.xcsh/types`) next to the hooks folder, and
 * `init` a `tsconfig.json` in the hooks folder whose `paths` lead `xcsh-hooks` there.
 */
import { XcshError } from "../errors.ts";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "pathe";
import type { DeclarationFiles } from "./collect.ts";

/** The file that marks a types folder as ours: only such a folder is emptied before writing. */
export const TYPES_MARKER = ".xcsh-hooks-types";

/** The declaration files, from the executable or (run from source) from the checkout. */
export async function loadDeclarations(): Promise<DeclarationFiles> {
	const { EMBEDDED_DECLARATIONS } = await import("./embedded.ts");
	if (EMBEDDED_DECLARATIONS !== undefined)
		return JSON.parse(new TextDecoder().decode(Bun.gunzipSync(Buffer.from(EMBEDDED_DECLARATIONS, "base64"))));
	const { cachedDeclarations } = await import("./collect.ts");
	return cachedDeclarations();
}

/** Why a types folder cannot be written, or `undefined`: an existing folder must be ours or empty. */
export function typesFolderProblem(dir: string): string | undefined {
	if (!existsSync(dir)) return undefined;
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch (error) {
		return `${dir} is not a folder I can read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
	}
	if (names.length === 0 || names.includes(TYPES_MARKER)) return undefined;
	return `${dir} exists and was not written by xcsh-hooks types; nothing written (choose another --out, or empty it)`;
}

/**
 * Writes every declaration file into `dir`, replacing what an earlier run wrote there (so files a
 * newer version dropped do not linger); returns how many files and bytes. Throws when
 * {@link typesFolderProblem} objects. The folder gets a `.gitignore` of `*`: it is generated, and
 * `xcsh-hooks types` writes it again in any clone.
 */
export async function writeTypes(dir: string, version: string): Promise<{ files: number; bytes: number }> {
	const problem = typesFolderProblem(dir);
	if (problem) throw new XcshError("INVALID_OPTION", problem);
	rmSync(dir, { recursive: true, force: true });
	const files = await loadDeclarations();
	let bytes = 0;
	for (const [path, text] of Object.entries(files)) {
		const target = join(dir, path);
		if (!target.startsWith(`${dir}/`)) throw new XcshError("INTERNAL", `refusing to write ${path} outside ${dir}`);
		mkdirSync(dirname(target), { recursive: true });
		bytes += await Bun.write(target, text);
	}
	await Bun.write(join(dir, TYPES_MARKER), `xcsh-hooks ${version}: written by \`xcsh-hooks types\`; rewritten on every run\n`);
	await Bun.write(join(dir, ".gitignore"), "*\n");
	return { files: Object.keys(files).length, bytes };
}

/**
 * A `tsconfig.json` for a hooks folder, with `types` the types folder: the library's names and
 * TypeBox resolve there through `paths`, and Bun's and Node's globals through `typeRoots`, so
 * an editor (and `tsc -p`) type-checks hooks and their tests without `node_modules`.
 */
export function editorTsconfig(hooksDir: string, typesDir: string): string {
	let rel = relative(hooksDir, typesDir);
	if (!rel.startsWith(".")) rel = `./${rel}`;
	const lib = `${rel}/xcsh-hooks`;
	const typebox = `${rel}/@sinclair/typebox`;
	const config = {
		compilerOptions: {
			target: "ESNext",
			module: "ESNext",
			moduleResolution: "bundler",
			lib: ["ESNext"],
			strict: true,
			noEmit: true,
			skipLibCheck: true,
			allowImportingTsExtensions: true,
			verbatimModuleSyntax: true,
			typeRoots: [`${rel}/@types`],
			types: ["bun"],
			paths: {
				"xcsh-hooks": [`${lib}/index.d.ts`],
				"xcsh-hooks/hooks": [`${lib}/hooks-surface.d.ts`],
				"xcsh-hooks/*": [`${lib}/*/index.d.ts`],
				"@f5-sales-demo/xcsh/hooks": [`${lib}/hooks-surface.d.ts`],
				"@sinclair/typebox": [`${typebox}/index.d.ts`],
				"@sinclair/typebox/*": [`${typebox}/*/index.d.ts`],
				"undici-types": [`${rel}/undici-types/index.d.ts`],
			},
		},
		include: ["**/*.ts"],
	};
	// tsconfig.json is JSON with comments: the two names a reader would not guess are explained in the file.
	const text = JSON.stringify(config, null, "\t")
		.replace(
			/^(\t+)"@f5-sales-demo\/xcsh\/hooks"/m,
			"$1// The xcsh agent's name for this same hook API: hooks written for xcsh import it, and run here unchanged.\n$&",
		)
		.replace(
			/^(\t+)"undici-types"/m,
			"$1// Node's declarations (fetch, Request…) import undici-types: served from the types folder too.\n$&",
		);
	return `${text}\n`;
}
