import { mkdtempSync, rmSync, statSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "pathe";
import { planHooks } from "../discovery/discover.ts";
import { resolvePath } from "../paths.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { writeTestPreload } from "./_served-library.ts";
import { gatePreloadSource } from "./_test-gate.ts";
import { selectTests, skippedLine } from "./_test-trust.ts";
import { CliError, EXIT_USAGE, hookArgs, hookPaths, projectDir, writeErr, defineCommand } from "./_shared.ts";

const TEST_FILES = "*.test.{ts,tsx,js,mjs,mts}";

/**
 * The folders that serve the library to the tests when this program runs from source: its `src` and the
 * folders its dependencies resolve to (hoisted into a project's `node_modules` when the package is
 * installed there). The compiled executable serves its own copy from the run's temp dir instead.
 */
function libraryDirs(): string[] {
	if (Bun.isStandaloneExecutable) return [];
	const root = resolve(import.meta.dir, "..", "..");
	const { dependencies = {} } = require(join(root, "package.json")) as { dependencies?: Record<string, string> };
	const dirs = [join(root, "src")];
	for (const name of Object.keys(dependencies)) {
		try {
			const entry = Bun.resolveSync(name, root);
			const at = entry.lastIndexOf(`/node_modules/${name}/`);
			if (at >= 0) dirs.push(entry.slice(0, at + `/node_modules/${name}`.length));
		} catch {} // not resolvable: nothing of it can load either
	}
	return dirs;
}

/** Test files of `dir`: directly in it, or (`deep`) anywhere below it, hidden folders included, never `node_modules`. */
function testFilesIn(dir: string, deep: boolean): string[] {
	const glob = new Bun.Glob(deep ? `**/${TEST_FILES}` : TEST_FILES);
	const found = [...glob.scanSync({ cwd: dir, dot: true, absolute: true, onlyFiles: true })];
	return found.filter((path) => !relative(dir, path).split("/").includes("node_modules")).sort();
}

/** The files named on the command line: a file as is, a folder searched for test files. */
function explicitFiles(paths: string[]): string[] {
	return paths.flatMap((path) => {
		const full = resolvePath(path, process.cwd());
		const info = statSync(full, { throwIfNoEntry: false });
		if (!info) throw new CliError(`${path}: no such file or folder`);
		return info.isDirectory() ? testFilesIn(full, true) : [full];
	});
}

/**
 * The project's hook plan: the tests next to the hooks it finds (and those given with `--hook`), and the
 * folders of its project-level hooks, which the trust gate guards. Tests next to a hook awaiting approval
 * are collected too: each test file is then decided on its own (`_test-trust.ts`).
 */
async function hookPlan(cwd: string, args: { hook?: unknown; discovery?: boolean }): Promise<{ tests: string[]; hookDirs: string[] }> {
	const plan = await planHooks(hookPaths(args), cwd, { trust: new TrustStore(), discovery: args.discovery !== false });
	const dirs = new Set<string>();
	const hookDirs = new Set<string>();
	for (const entry of plan.entries) {
		if (entry.hook?.entry) continue; // an agent's config entry: its folder is a settings folder, not a hook folder
		dirs.add(dirname(entry.path));
		if (entry.source.level === "project") hookDirs.add(dirname(entry.path));
	}
	return { tests: [...new Set([...dirs].flatMap((dir) => testFilesIn(dir, false)))], hookDirs: [...hookDirs] };
}

/**
 * `xcsh-hooks test [paths…]`: bun:test on hook tests, with `xcsh-hooks` served by this program. Project
 * code runs only once approved (`_test-trust.ts` says what that means for a test file). A skipped test is
 * reported, not failed: the exit code is the run's, or 1 when every test file found was skipped.
 */
export const testCommand = defineCommand({
	meta: {
		name: "test",
		description: "Run hook tests with bun:test (no node_modules needed)",
		details:
			"Run hook tests with bun:test, importing xcsh-hooks, xcsh-hooks/testing and @sinclair/typebox from this program " +
			"(no node_modules needed). Default: the *.test.ts files next to the discovered hooks; or the files and folders given. " +
			"A project test file runs only once it and the hook it is named after are approved, and it loads only approved project files.",
	},
	args: {
		paths: { type: "positional", required: false, description: "Test files or folders (default: the tests next to the hooks)" },
		"test-name-pattern": { type: "string", alias: ["t"], description: "Run only tests whose name matches this regex", valueHint: "regex" },
		bail: { type: "boolean", description: "Stop after the first failing test" },
		...hookArgs,
	},
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const named = args._;
		const plan = await hookPlan(cwd, args);
		const candidates = named.length > 0 ? explicitFiles(named) : plan.tests;
		if (candidates.length === 0)
			throw new CliError(
				named.length > 0
					? `no test files (${TEST_FILES}) in ${named.join(", ")}`
					: `no hook tests found next to the hooks of ${cwd}; scaffold one with xcsh-hooks init <name>, or name the files`,
			);

		const dir = mkdtempSync(join(tmpdir(), "xcsh-hooks-test-"));
		try {
			const selection = await selectTests(candidates, {
				cwd,
				store: new TrustStore(),
				hookDirs: plan.hookDirs,
				given: hookPaths(args).map((path) => resolvePath(path, cwd)),
				ours: [dir, ...libraryDirs()],
			});
			for (const skip of selection.skipped) await writeErr(skippedLine(skip));
			const files = selection.run;
			if (files.length === 0)
				throw new CliError(
					`no test file may run: ${selection.skipped.length === 1 ? "the one found was" : `all ${selection.skipped.length} found were`} skipped (above)`,
				);
			const preload = await writeTestPreload(dir, gatePreloadSource(selection.gate));
			const bunArgs = ["test", "--preload", preload];
			if (args["test-name-pattern"]) bunArgs.push("--test-name-pattern", String(args["test-name-pattern"]));
			if (args.bail) bunArgs.push("--bail");
			// As the CLI itself: the project's bunfig.toml and .env are not loaded.
			const proc = Bun.spawn([process.execPath, "--no-env-file", "--config=/dev/null", ...bunArgs, ...files], {
				cwd,
				env: { ...process.env, BUN_BE_BUN: "1" },
				stdio: ["inherit", "inherit", "inherit"],
			});
			// Ctrl-C reaches the test run too (same process group): wait for it to finish and report its code.
			const ignore = () => {};
			process.on("SIGINT", ignore);
			try {
				const code = await proc.exited;
				return proc.signalCode ? 128 + ((constants.signals as Record<string, number>)[String(proc.signalCode)] ?? 0) : code;
			} finally {
				process.off("SIGINT", ignore);
			}
		} catch (error) {
			if (error instanceof CliError) throw error;
			throw new CliError(`could not start the tests: ${(error as Error).message}`, EXIT_USAGE);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
});
