import { isXcshError } from "../errors.ts";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join, resolve } from "pathe";
import { planHooks } from "../discovery/discover.ts";
import { resolvePath } from "../paths.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { writeTestPreload } from "./_served-library.ts";
import { gatePreloadSource } from "./_test-gate.ts";
import { selectTests, skippedLine } from "./_test-trust.ts";
import { TEST_FILES, testFilesIn, testsBeside } from "./_test-files.ts";
import { approvePassing, failSkipped } from "./_test-approve.ts";
import { findProject } from "../discovery/project.ts";
import { loadTeamFor } from "../discovery/team-approvals.ts";
import { cliError, EXIT_USAGE, hookArgs, hookPaths, projectDir, writeErr, defineCommand } from "./_shared.ts";

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

/** The files named on the command line: a file as is, a folder searched for test files. */
function explicitFiles(paths: string[]): string[] {
	return paths.flatMap((path) => {
		const full = resolvePath(path, process.cwd());
		const info = statSync(full, { throwIfNoEntry: false });
		if (!info) throw cliError(`${path}: no such file or folder`);
		return info.isDirectory() ? testFilesIn(full, true) : [full];
	});
}

/**
 * The project's hook plan: the tests next to the hooks it finds (and those given with `--hook`), and the
 * folders of its project-level hooks, which the trust gate guards. Tests next to a hook awaiting approval
 * are collected too: each test file is then decided on its own (`_test-trust.ts`).
 */
async function hookPlan(
	cwd: string,
	args: { hook?: unknown; discovery?: boolean },
): Promise<{ tests: string[]; hookDirs: string[]; unapproved: string[] }> {
	const plan = await planHooks(hookPaths(args), cwd, { trust: new TrustStore(), discovery: args.discovery !== false });
	const files: string[] = [];
	const hookDirs = new Set<string>();
	for (const entry of plan.entries) {
		if (entry.hook?.entry) continue; // an agent's config entry: its folder is a settings folder, not a hook folder
		files.push(entry.path);
		if (entry.source.level === "project") hookDirs.add(dirname(entry.path));
	}
	// Project hooks awaiting approval: `--approve` names those it leaves alone because no test covers them.
	const entries = new Set(plan.entries.filter((e) => e.hook?.entry).map((e) => e.path)); // agent config entries have no tests
	const unapproved = plan.skipped.filter((s) => s.reason !== "unverifiable" && !entries.has(s.path)).map((s) => s.path);
	return { tests: testsBeside(files), hookDirs: [...hookDirs], unapproved };
}

/**
 * `xcsh-hooks test [paths…]`: bun:test on hook tests, with `xcsh-hooks` served by this program. Project
 * code runs only once approved (`_test-trust.ts` says what that means for a test file). A test skipped
 * for approval fails the run (exit 1 at least, each one named) unless `--skip-unapproved`, so a CI run
 * never goes green without it; `--approve` is the author's loop (`_test-approve.ts`).
 */
export const testCommand = defineCommand({
	meta: {
		name: "test",
		description: "Run hook tests with bun:test (no node_modules needed)",
		details:
			"Run hook tests with bun:test, importing xcsh-hooks, xcsh-hooks/testing and @sinclair/typebox from this program " +
			"(no node_modules needed). Default: the *.test.ts files next to the discovered hooks; or the files and folders given. " +
			"A project test file runs only once it and the hook it is named after are approved, and it loads only approved project files; " +
			"a test skipped for that fails the run.",
	},
	args: {
		paths: { type: "positional", required: false, description: "Test files or folders (default: the tests next to the hooks)" },
		"test-name-pattern": { type: "string", alias: ["t"], description: "Run only tests whose name matches this regex", valueHint: "regex" },
		bail: { type: "boolean", description: "Stop after the first failing test" },
		approve: {
			type: "boolean",
			description:
				"The author's loop: run the tests of your files awaiting approval too, then approve exactly the files (each test and its hook) whose tests passed",
		},
		"skip-unapproved": {
			type: "boolean",
			description: "Let the run pass when tests were skipped because they (or their hooks) are not approved (default: the run fails)",
		},
		...hookArgs,
	},
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const named = args._;
		const plan = await hookPlan(cwd, args);
		const candidates = named.length > 0 ? explicitFiles(named) : plan.tests;
		if (candidates.length === 0)
			throw cliError(
				named.length > 0
					? `no test files (${TEST_FILES}) in ${named.join(", ")}`
					: `no hook tests found next to the hooks of ${cwd}; scaffold one with xcsh-hooks init <name>, or name the files`,
			);
		if (args.approve && args["skip-unapproved"]) throw cliError("--approve runs the tests awaiting approval; drop --skip-unapproved");

		const dir = mkdtempSync(join(tmpdir(), "xcsh-hooks-test-"));
		try {
			const warnings: string[] = [];
			const selection = await selectTests(candidates, {
				cwd,
				store: new TrustStore(),
				hookDirs: plan.hookDirs,
				given: hookPaths(args).map((path) => resolvePath(path, cwd)),
				ours: [dir, ...libraryDirs()],
				team: await loadTeamFor(findProject(cwd).root, warnings),
				pin: Boolean(args.approve),
			});
			for (const warning of warnings) await writeErr(`warning: ${warning}`);
			for (const skip of selection.skipped) await writeErr(skippedLine(skip));
			const files = selection.run;
			if (files.length === 0)
				throw cliError(
					`no test file may run: ${selection.skipped.length === 1 ? "the one found was" : `all ${selection.skipped.length} found were`} skipped (above)`,
				);
			const preload = await writeTestPreload(dir, gatePreloadSource(selection.gate));
			const bunArgs = ["test", "--preload", preload];
			if (args["test-name-pattern"]) bunArgs.push("--test-name-pattern", String(args["test-name-pattern"]));
			if (args.bail) bunArgs.push("--bail");
			// As the CLI itself: the project's bunfig.toml and .env are not loaded.
			const bunTest = async (tests: string[]) =>
				runBunTest([process.execPath, "--no-env-file", "--config=/dev/null", ...bunArgs, ...tests], cwd);
			if (args.approve) return await approvePassing(selection, bunTest, plan.unapproved);
			const code = await bunTest(files);
			return await failSkipped(code, selection.skipped, Boolean(args["skip-unapproved"]));
		} catch (error) {
			if (isXcshError(error)) throw error;
			throw cliError(`could not start the tests: ${(error as Error).message}`, EXIT_USAGE);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
});

/** Runs `bun test` (`argv`) in `cwd` with the terminal; its exit code (128 + the signal's number when a signal ended it). */
async function runBunTest(argv: string[], cwd: string): Promise<number> {
	const proc = Bun.spawn(argv, { cwd, env: { ...process.env, BUN_BE_BUN: "1" }, stdio: ["inherit", "inherit", "inherit"] });
	// Ctrl-C reaches the test run too (same process group): wait for it to finish and report its code.
	const ignore = () => {};
	process.on("SIGINT", ignore);
	try {
		const code = await proc.exited;
		return proc.signalCode ? 128 + ((constants.signals as Record<string, number>)[String(proc.signalCode)] ?? 0) : code;
	} finally {
		process.off("SIGINT", ignore);
	}
}
