import { mkdtempSync, rmSync, statSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join, relative } from "pathe";
import { planHooks } from "../discovery/discover.ts";
import { resolvePath } from "../paths.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { writeTestPreload } from "./_served-library.ts";
import { CliError, EXIT_USAGE, globalArgs, hookPaths, projectDir, writeErr, defineCommand } from "./_shared.ts";

const TEST_FILES = "*.test.{ts,tsx,js,mjs,mts}";

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
 * The tests next to the hooks discovery finds (and those given with `--hook`). A project hook that was
 * never approved is left out, with its test: nothing of a fresh clone runs before trust is decided.
 */
async function discoveredFiles(
	cwd: string,
	args: { hook?: unknown; discovery?: boolean },
): Promise<{ files: string[]; skipped: string[] }> {
	const plan = await planHooks(hookPaths(args), cwd, { trust: new TrustStore(), discovery: args.discovery !== false });
	const dirs = new Set<string>();
	const skipped: string[] = [];
	for (const entry of plan.entries) {
		if (entry.status === "not-approved") skipped.push(entry.path);
		else dirs.add(dirname(entry.path));
	}
	return { files: [...new Set([...dirs].flatMap((dir) => testFilesIn(dir, false)))], skipped };
}

/** `xcsh-hooks test [paths…]`: bun:test on hook tests, with `xcsh-hooks` served by this program. */
export const testCommand = defineCommand({
	meta: {
		name: "test",
		description:
			"Run hook tests with bun:test, importing xcsh-hooks, xcsh-hooks/testing and @sinclair/typebox from this program " +
			"(no node_modules needed). Default: the *.test.ts files next to the discovered hooks (a project hook awaiting approval " +
			"is left out); or the files and folders given.",
	},
	args: {
		paths: { type: "positional", required: false, description: "Test files or folders (default: the tests next to the hooks)" },
		"test-name-pattern": { type: "string", alias: ["t"], description: "Run only tests whose name matches this regex", valueHint: "regex" },
		bail: { type: "boolean", description: "Stop after the first failing test" },
		...globalArgs,
	},
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const named = args._;
		let files: string[];
		if (named.length > 0) files = explicitFiles(named);
		else {
			const found = await discoveredFiles(cwd, args);
			for (const path of found.skipped)
				await writeErr(`skipped the tests next to ${path}: not approved (xcsh-hooks trust approve ${path})`);
			files = found.files;
		}
		if (files.length === 0)
			throw new CliError(
				named.length > 0
					? `no test files (${TEST_FILES}) in ${named.join(", ")}`
					: `no hook tests found next to the hooks of ${cwd}; scaffold one with xcsh-hooks init <name>, or name the files`,
			);

		const dir = mkdtempSync(join(tmpdir(), "xcsh-hooks-test-"));
		try {
			const preload = await writeTestPreload(dir);
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
