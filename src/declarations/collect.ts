/**
 * Gathers the type declarations a hook author's editor needs, from a checkout with its
 * `node_modules`: this library's own, emitted by `tsc --emitDeclarationOnly` from its four entry
 * points, and those of the packages they mention (TypeBox, Bun's and Node's types, undici's).
 * The build embeds the result in the executable; run from source, `xcsh-hooks types` calls it directly.
 */
import { XcshError } from "../errors.ts";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "pathe";

/** Declaration files by path relative to the types folder (`xcsh-hooks/index.d.ts`, `@types/bun/bun.d.ts`…). */
export type DeclarationFiles = Record<string, string>;

const ROOT = resolve(import.meta.dir, "..", "..");

/** The library's entry points, as in package.json's `exports`. */
const ENTRIES = ["src/index.ts", "src/hooks-surface.ts", "src/testing/index.ts", "src/guards/index.ts"];
/** Ambient declarations the entries' code relies on (`*.wasm` imports). */
const AMBIENT = ["src/guards/wasm.d.ts"];

/**
 * Packages whose declarations are copied: `from` under node_modules, `to` in the types folder, and
 * folders left out (Node's `ts5.x` copies serve compilers older than any editor that reads TS 7 output).
 */
const VENDORED = [
	// ts7.1/ holds syntax TypeScript 7.0 cannot parse (a tsconfig that includes the folder would fail):
	// left out, with the `typesVersions` that selects it.
	{ from: "bun-types", to: "@types/bun", skip: ["docs", "ts7.1"] },
	{ from: "@types/node", to: "@types/node", skip: ["ts5.6", "ts5.7"] },
	{ from: "undici-types", to: "undici-types", skip: [] },
	{ from: "@sinclair/typebox/build/cjs", to: "@sinclair/typebox", skip: [] },
] as const;

const KEEP = /(\.d\.[cm]?ts|^package\.json)$/;

/** A package.json without `typesVersions`: it would select folders not copied (see {@link VENDORED}). */
function packageJsonWithoutTypesVersions(text: string): string {
	const { typesVersions: _, ...rest } = JSON.parse(text) as Record<string, unknown>;
	return `${JSON.stringify(rest, null, "\t")}\n`;
}

/** Every declaration (and package.json) below `dir`, keyed by `prefix/<relative path>`. */
function readTree(dir: string, prefix: string, skip: readonly string[], out: DeclarationFiles): void {
	for (const name of readdirSync(dir)) {
		if (skip.includes(name)) continue;
		const path = join(dir, name);
		if (statSync(path).isDirectory()) readTree(path, `${prefix}/${name}`, [], out);
		else if (name === "package.json") out[`${prefix}/${name}`] = packageJsonWithoutTypesVersions(readFileSync(path, "utf8"));
		else if (KEEP.test(name)) out[`${prefix}/${name}`] = readFileSync(path, "utf8");
	}
}

/** Runs the checkout's `tsc` to emit the library's declarations into a temp folder; throws with its output. */
async function emitLibrary(out: DeclarationFiles): Promise<void> {
	const tmp = mkdtempSync(join(tmpdir(), "xcsh-dts-"));
	try {
		const config = join(tmp, "tsconfig.json");
		await Bun.write(
			config,
			JSON.stringify({
				extends: join(ROOT, "tsconfig.json"),
				compilerOptions: {
					noEmit: false,
					declaration: true,
					emitDeclarationOnly: true,
					outDir: join(tmp, "out"),
					rootDir: join(ROOT, "src"),
					// Resolved from the temp folder otherwise, where there is no node_modules.
					typeRoots: [join(ROOT, "node_modules", "@types")],
				},
				files: [...ENTRIES, ...AMBIENT].map((entry) => join(ROOT, entry)),
				include: [],
			}),
		);
		const tsc = join(ROOT, "node_modules", ".bin", "tsc");
		// An installed package (`bun add`) has neither its devDependencies nor a need: its .ts sources are its types.
		if (!existsSync(tsc))
			throw new XcshError(
				"COMMAND_FAILED",
				`no ${tsc}: the declarations come from the compiled executable, or from a checkout after \`bun install\` (where the package is installed, editors read its sources)`,
			);
		const proc = Bun.spawn([tsc, "-p", config], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env: process.env });
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		if (code !== 0) throw new XcshError("COMMAND_FAILED", `tsc could not emit the declarations (exit ${code}):\n${stdout}${stderr}`);
		const emitted: DeclarationFiles = {};
		readTree(join(tmp, "out"), "xcsh-hooks", [], emitted);
		for (const [path, text] of Object.entries(emitted)) out[path] = text;
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
}

/** All declaration files of the types folder; needs this checkout's `node_modules` (typescript and the vendored packages). */
export async function collectDeclarations(): Promise<DeclarationFiles> {
	const files: DeclarationFiles = {};
	await emitLibrary(files);
	for (const { from, to, skip } of VENDORED) readTree(join(ROOT, "node_modules", from), to, skip, files);
	return files;
}

/** A key that changes when any source file or the lockfile does (path, size, mtime of each). */
function sourceKey(): string {
	const hasher = new Bun.CryptoHasher("sha256");
	const walk = (dir: string) => {
		for (const name of readdirSync(dir).sort()) {
			const path = join(dir, name);
			const info = statSync(path);
			if (info.isDirectory()) walk(path);
			else hasher.update(`${path}\0${info.size}\0${info.mtimeMs}\n`);
		}
	};
	walk(join(ROOT, "src"));
	for (const file of ["bun.lock", "package.json", "tsconfig.json"]) {
		const info = statSync(join(ROOT, file), { throwIfNoEntry: false });
		hasher.update(`${file}\0${info?.size}\0${info?.mtimeMs}\n`);
	}
	return hasher.digest("hex").slice(0, 16);
}

let memo: { key: string; files: Promise<DeclarationFiles> } | undefined;

/**
 * {@link collectDeclarations} for `bun src/cli.ts`, which would otherwise run tsc (seconds) on
 * every `init`: kept in memory and in `node_modules/.cache/xcsh-hooks/`, under a key of the
 * sources' sizes and mtimes, so it is collected again only after an edit.
 */
export async function cachedDeclarations(): Promise<DeclarationFiles> {
	const key = sourceKey();
	if (memo?.key === key) return memo.files;
	const file = join(ROOT, "node_modules", ".cache", "xcsh-hooks", `declarations-${key}.json`);
	const files = (async () => {
		try {
			return JSON.parse(readFileSync(file, "utf8")) as DeclarationFiles;
		} catch {}
		const fresh = await collectDeclarations();
		const dir = join(ROOT, "node_modules", ".cache", "xcsh-hooks");
		mkdirSync(dir, { recursive: true });
		for (const old of readdirSync(dir)) if (/^declarations-\w+\.json$/.test(old)) rmSync(join(dir, old), { force: true });
		// Written aside and renamed: a concurrent reader never sees half a file.
		const aside = `${file}.${process.pid}.tmp`;
		await Bun.write(aside, JSON.stringify(fresh));
		renameSync(aside, file);
		return fresh;
	})();
	memo = { key, files };
	return files;
}

/** The declarations packed for embedding: gzipped JSON, base64 (≈ a fifth of the raw text). */
export async function packedDeclarations(): Promise<string> {
	const json = JSON.stringify(await collectDeclarations());
	return Buffer.from(Bun.gzipSync(new TextEncoder().encode(json), { level: 9 })).toString("base64");
}

/** The path of a file of this folder relative to the checkout (for the build's plugin). */
export const EMBEDDED_MODULE = relative(ROOT, join(import.meta.dir, "embedded.ts"));
