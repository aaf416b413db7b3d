#!/usr/bin/env bun
/**
 * Cross-compiles the executable for every platform we ship into `dist/release/`, named
 * `xcsh-hooks-<version>-<platform>` (`.exe` on Windows), copies `install.sh` beside them and writes
 * `SHA256SUMS` for all of them in the format `sha256sum -c` reads. Bun fetches each target's runtime on first use (cached afterwards);
 * its download progress is not shown: one line per target, size in MiB.
 *
 *   bun run release [--outdir DIR] [--target linux-x64,darwin-arm64,…]
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { basename, join, relative, resolve } from "pathe";
import { packedDeclarations } from "../src/declarations/collect.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Every platform a release ships, by the name its asset carries, with its Bun compile target. */
export const RELEASE_TARGETS = {
	"linux-x64": "bun-linux-x64",
	"linux-arm64": "bun-linux-arm64",
	"linux-x64-musl": "bun-linux-x64-musl",
	"darwin-x64": "bun-darwin-x64",
	"darwin-arm64": "bun-darwin-arm64",
	"windows-x64": "bun-windows-x64",
} as const satisfies Record<string, Bun.Build.CompileTarget>;

/** A platform name of {@link RELEASE_TARGETS}. */
export type ReleasePlatform = keyof typeof RELEASE_TARGETS;

/** Options of {@link buildRelease}. */
export interface ReleaseOptions {
	/** Where the assets and `SHA256SUMS` go (default `dist/release`); emptied first. */
	outdir?: string | undefined;
	/** Platforms to build (default: all of {@link RELEASE_TARGETS}). */
	platforms?: readonly ReleasePlatform[];
	/** Version in the names (default: package.json's). */
	version?: string;
	/** Called after each asset is written. */
	onAsset?: (asset: ReleaseAsset) => void;
}

/** One built file of a release. */
export interface ReleaseAsset {
	platform: ReleasePlatform;
	file: string;
	bytes: number;
	sha256: string;
}

/** This package's version, from package.json. */
export function packageVersion(): string {
	return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The asset's file name for `platform`: `xcsh-hooks-0.1.0-linux-x64`, `xcsh-hooks-0.1.0-windows-x64.exe`. */
export function assetName(version: string, platform: ReleasePlatform): string {
	return `xcsh-hooks-${version}-${platform}${platform.startsWith("windows") ? ".exe" : ""}`;
}

/** Hex SHA-256 of a file. */
export async function sha256File(path: string): Promise<string> {
	const hasher = new Bun.CryptoHasher("sha256");
	hasher.update(await Bun.file(path).arrayBuffer());
	return hasher.digest("hex");
}

/**
 * Runs scripts/build.ts in a child process with its output captured: Bun prints its progress
 * downloading a target's runtime straight to the terminal, which a release run should not show
 * (only when a build fails, as part of the error).
 */
async function buildQuietly(args: string[]): Promise<void> {
	const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", "build.ts"), ...args], {
		cwd: ROOT,
		stdin: "ignore",
		stdout: "pipe",
		stderr: "pipe",
		env: process.env,
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	if (code !== 0) throw new Error(`${stderr.trim() || stdout.trim() || `build exited with ${code}`}`);
}

/**
 * Builds every asset of a release, one at a time, copies `install.sh`, then writes `SHA256SUMS`
 * (`<hex>  <name>` lines, sorted by name). Throws naming each platform that failed, after trying them all.
 */
export async function buildRelease(options: ReleaseOptions = {}): Promise<{ outdir: string; assets: ReleaseAsset[]; sums: string }> {
	const outdir = resolve(process.cwd(), options.outdir ?? join(ROOT, "dist", "release"));
	const version = options.version ?? packageVersion();
	const platforms = options.platforms ?? (Object.keys(RELEASE_TARGETS) as ReleasePlatform[]);
	rmSync(outdir, { recursive: true, force: true });
	mkdirSync(outdir, { recursive: true });
	const assets: ReleaseAsset[] = [];
	const failures: string[] = [];
	// Collected once (tsc takes seconds), handed to every build.
	const declarations = join(outdir, ".declarations");
	await Bun.write(declarations, await packedDeclarations());
	for (const platform of platforms) {
		const name = assetName(version, platform);
		try {
			// Bun itself adds `.exe` for Windows, so it is not given twice.
			const outfile = join(outdir, name.replace(/\.exe$/, ""));
			const file = join(outdir, name);
			await buildQuietly(["--outfile", outfile, "--target", RELEASE_TARGETS[platform], "--declarations", declarations]);
			if (!existsSync(file)) throw new Error(`expected ${name}, Bun wrote ${readdirSync(outdir).join(", ")}`);
			const asset = { platform, file, bytes: statSync(file).size, sha256: await sha256File(file) };
			assets.push(asset);
			options.onAsset?.(asset);
		} catch (error) {
			failures.push(`${platform} (${RELEASE_TARGETS[platform]}): ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	rmSync(declarations, { force: true });
	// The installer is a release asset too: `curl …/install.sh | sh` fetches it from the same place.
	const installer = join(outdir, "install.sh");
	copyFileSync(join(ROOT, "scripts", "install.sh"), installer);
	chmodSync(installer, 0o755);
	const sums = [...assets.map((a) => [a.sha256, a.file]), [await sha256File(installer), installer]]
		.map(([sha, file]) => `${sha}  ${basename(file as string)}\n`)
		.sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1))
		.join("");
	await Bun.write(join(outdir, "SHA256SUMS"), sums);
	if (failures.length > 0)
		throw new Error(`could not build ${failures.length} of ${platforms.length} targets:\n  ${failures.join("\n  ")}`);
	return { outdir, assets, sums };
}

if (import.meta.main) {
	const { values } = parseArgs({
		args: Bun.argv.slice(2),
		options: { outdir: { type: "string" }, target: { type: "string", multiple: true }, help: { type: "boolean", short: "h" } },
	});
	if (values.help) {
		console.log(`Usage: bun run release [--outdir DIR] [--target ${Object.keys(RELEASE_TARGETS).join(",")}]`);
		process.exit(0);
	}
	const platforms = values.target
		?.flatMap((t) => t.split(","))
		.map((t) => t.trim())
		.filter(Boolean);
	const unknown = platforms?.filter((p) => !Object.hasOwn(RELEASE_TARGETS, p)) ?? [];
	if (unknown.length > 0) {
		console.error(`--target ${unknown.join(",")}: expected one of ${Object.keys(RELEASE_TARGETS).join(", ")}`);
		process.exit(1);
	}
	const started = performance.now();
	try {
		const { outdir } = await buildRelease({
			outdir: values.outdir,
			...(platforms ? { platforms: platforms as ReleasePlatform[] } : {}),
			onAsset: (a) =>
				console.log(`${relative(process.cwd(), a.file)}  ${(a.bytes / 1024 / 1024).toFixed(1)} MiB  ${a.sha256.slice(0, 12)}…`),
		});
		console.log(`${relative(process.cwd(), join(outdir, "SHA256SUMS"))}  (${Math.round(performance.now() - started)} ms)`);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	}
}
