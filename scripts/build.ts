#!/usr/bin/env bun
/**
 * Compiles `src/cli.ts` into one executable (default `dist/xcsh-hooks`) that embeds the runtime,
 * the CLI and the library it serves to hooks (docs/contract.md#the-executable-serves-the-library).
 *
 *   bun run build [--outfile PATH] [--target bun-linux-x64|bun-darwin-arm64|…] [--no-bytecode] [--no-minify]
 *                 [--declarations FILE]   (packed declarations to embed, as scripts/release.ts passes them)
 *
 * Every setting below was kept because it shortened the cold start of `xcsh-hooks emit tool_call`
 * with 10 hook files (docs/contract.md#performance-budgets), measured against the same build without it.
 */
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { join, relative, resolve } from "pathe";
import { clientAgents } from "../src/socket/client-agents.ts";
import { packedDeclarations } from "../src/declarations/collect.ts";

const ROOT = resolve(import.meta.dir, "..");
/** Tier-up thresholds ×16 at start-up: measured ≈10% off `emit tool_call` (8 and 64 did no better). */
const JIT_POLICY = 16;

/** Options of {@link buildExecutable}. */
export interface BuildExecutableOptions {
	/** Where to write the executable (default `dist/xcsh-hooks`, `.exe` added for Windows targets by Bun). */
	outfile?: string | undefined;
	/** A `bun build --compile` target such as `bun-linux-x64` or `bun-darwin-arm64`; default: this machine. */
	target?: Bun.Build.CompileTarget | undefined;
	/** Precompile to bytecode (default true): the executable skips parsing at start-up. */
	bytecode?: boolean;
	/** Minify (default true): less code to read and decode at start-up. */
	minify?: boolean;
	/** The packed declarations to embed (see src/declarations/collect.ts); collected when absent. */
	declarations?: string | undefined;
}

/**
 * Puts the packed type declarations into `src/declarations/embedded.ts` (a lazy chunk only
 * `xcsh-hooks types` and `init` load), so hook authors get types from the executable alone.
 */
function embedDeclarations(packed: string): Bun.BunPlugin {
	const file = join(ROOT, "src", "declarations", "embedded.ts");
	return {
		name: "xcsh-hooks-declarations",
		setup(build) {
			build.onLoad({ filter: /[\\/]declarations[\\/]embedded\.ts$/ }, (args) => {
				if (resolve(args.path) !== file) return undefined;
				return { loader: "ts", contents: `export const EMBEDDED_DECLARATIONS = ${JSON.stringify(packed)};\n` };
			});
		},
	};
}

/** Builds the executable and resolves its absolute path and size in bytes; throws with the bundler's messages. */
export async function buildExecutable(options: BuildExecutableOptions = {}): Promise<{ outfile: string; bytes: number }> {
	const outfile = resolve(process.cwd(), options.outfile ?? join(ROOT, "dist", "xcsh-hooks"));
	const runtime = await bundleAgentRuntime(options.minify ?? true);
	const declarations = options.declarations ?? (await packedDeclarations());
	const result = await Bun.build({
		entrypoints: [join(ROOT, "src", "cli.ts")],
		format: "esm",
		target: "bun",
		// Lazy `import()`s (commands, the served library) become chunks loaded only when reached,
		// so `emit` never reads or decodes the code of `init`, `demo` or consola.
		splitting: true,
		bytecode: options.bytecode ?? true,
		minify: options.minify ?? true,
		// Namespace objects (`import * as`) get plain getters, without a bound setter per export.
		deprecatedNamespaceObjectSetters: false,
		// The library's declarations (`types`, `init`) and the plugin runtime for agents that load plugins
		// in-process (`install opencode|kilo`): modules only those commands import.
		plugins: [embedDeclarations(declarations), embedRuntime(runtime), inlineClientAgents()],
		compile: {
			outfile,
			...(options.target ? { target: options.target } : {}),
			// A project's bunfig.toml (its `preload`) or .env must not run or leak into the hook
			// runner before trust is checked; skipping them also saves start-up time.
			autoloadBunfig: false,
			autoloadDotenv: false,
			// Most runs are one short `emit`: run-once start-up code stays in the interpreter instead
			// of being JIT-compiled and thrown away. Long-lived commands (`serve`) may reset it with
			// `Bun.unsafe.setJITPolicy(1)`.
			jitPolicy: JIT_POLICY,
		},
		throw: false,
	});
	if (!result.success) {
		const messages = result.logs.map((log) => String(log)).join("\n");
		throw new Error(`build failed:\n${messages}`);
	}
	// Bun appends `.exe` for Windows targets; report the file that was actually written.
	const written = result.outputs[0]?.path ?? outfile;
	return { outfile: written, bytes: statSync(written).size };
}

/**
 * Replaces `src/socket/client-agents.ts` by the table it computes, as a literal: the forwarding
 * client on every bridge call's start-up then does not import the agent registry (≈0.3 ms).
 */
function inlineClientAgents(): Bun.BunPlugin {
	const file = join(ROOT, "src", "socket", "client-agents.ts");
	return {
		name: "xcsh-hooks-client-agents",
		setup(build) {
			build.onLoad({ filter: /[\\/]socket[\\/]client-agents\.ts$/ }, (args) => {
				if (resolve(args.path) !== file) return undefined;
				const table = JSON.stringify(clientAgents());
				return {
					loader: "ts",
					contents: `export const CLIENT_AGENTS = ${table};\nexport function clientAgents() { return JSON.parse(${JSON.stringify(table)}); }\n`,
				};
			});
		},
	};
}

/**
 * Bundles the library and the in-process plugin runtime (src/inprocess/bundle-entry.ts) for Bun, as
 * files: `agent-runtime.js` and the shell parser's `.wasm` assets it names by `./` paths beside it.
 * Resolves file name → base64 bytes. `install opencode|kilo` writes them to `~/.xcsh/agent/runtime/<version>/`.
 */
export async function bundleAgentRuntime(minify: boolean): Promise<Record<string, string>> {
	const result = await Bun.build({
		entrypoints: [join(ROOT, "src", "inprocess", "bundle-entry.ts")],
		format: "esm",
		target: "bun",
		minify,
		throw: false,
	});
	if (!result.success) throw new Error(`plugin runtime bundle failed:\n${result.logs.map(String).join("\n")}`);
	const files: Record<string, string> = {};
	for (const output of result.outputs) {
		const name = output.kind === "entry-point" ? "agent-runtime.js" : output.path.replace(/^\.\//, "");
		files[name] = Buffer.from(await output.arrayBuffer()).toString("base64");
	}
	return files;
}

/** A bundler plugin serving `xcsh-hooks-agent-runtime` (see src/install/plugin-runtime.ts) from `files`. */
function embedRuntime(files: Record<string, string>): Bun.BunPlugin {
	return {
		name: "xcsh-hooks-agent-runtime",
		setup(build) {
			build.onResolve({ filter: /^xcsh-hooks-agent-runtime$/ }, () => ({ path: "xcsh-hooks-agent-runtime", namespace: "xcsh-embedded" }));
			build.onLoad({ filter: /.*/, namespace: "xcsh-embedded" }, () => ({
				contents: `export const files = ${JSON.stringify(files)};`,
				loader: "js",
			}));
		},
	};
}

if (import.meta.main) {
	const { values } = parseArgs({
		args: Bun.argv.slice(2),
		options: {
			outfile: { type: "string" },
			target: { type: "string" },
			"no-bytecode": { type: "boolean" },
			"no-minify": { type: "boolean" },
			declarations: { type: "string" },
			help: { type: "boolean", short: "h" },
		},
	});
	if (values.help) {
		console.log("Usage: bun scripts/build.ts [--outfile PATH] [--target bun-<os>-<arch>] [--no-bytecode] [--no-minify]");
		process.exit(0);
	}
	if (values.target !== undefined && !values.target.startsWith("bun-")) {
		console.error(
			`--target ${values.target}: expected a Bun compile target such as bun-linux-x64, bun-linux-arm64, bun-darwin-arm64 or bun-windows-x64`,
		);
		process.exit(1);
	}
	try {
		const started = performance.now();
		const { outfile, bytes } = await buildExecutable({
			outfile: values.outfile,
			target: values.target as Bun.Build.CompileTarget | undefined,
			bytecode: !values["no-bytecode"],
			minify: !values["no-minify"],
			declarations: values.declarations === undefined ? undefined : await Bun.file(values.declarations).text(),
		});
		const ms = Math.round(performance.now() - started);
		console.log(`${relative(process.cwd(), outfile) || outfile}  ${(bytes / 1024 / 1024).toFixed(1)} MiB  (${ms} ms)`);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	}
}
