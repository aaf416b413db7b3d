import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "pathe";
import { userAgentDir } from "../paths.ts";
import { coveredFiles, verifyCovered } from "../discovery/covered.ts";
import { teamApproved } from "../discovery/team-approvals.ts";
import type { TeamApprovals } from "../trust/team-list.ts";
import { hashFile, readHookFile, sha256Hex, type TrustStore, trustKey } from "../trust/trust-store.ts";
import type { TestGateConfig } from "./_test-gate.ts";

/*
 * Which project code `xcsh-hooks test` may run (docs/contract.md#trust: it imports and runs nothing unapproved;
 * trust is decided per hook file and per test file). A test file is project code that runs, and what
 * it runs is whatever it imports or starts, so:
 *
 * - A guarded file is one in the project (`--cwd`) or in the folder of one of its project-level hooks
 *   (a path the project's settings list may lie outside it), except the user directory `~/.xcsh/agent`.
 *   Everything else is the user's own and runs as it is, like user-level hooks do.
 * - A guarded test file runs only when it is approved itself (`xcsh-hooks trust approve <test>`, or a
 *   signed team list the user trusts holds its bytes) and so is the hook it is named after: every file beside it whose name without its last extension is the
 *   test's name (`guard.test.ts` tests `guard.ts`, `pre/bash.test.ts` tests `pre/bash.sh`). That hook
 *   may be a shell script the test starts, which no import gate sees. Otherwise the test file is skipped
 *   with one line naming why and the one `trust approve` command that would let it run.
 * - While the tests run, every guarded file Bun loads passes the gate of `_test-gate.ts`: loaded from
 *   approved bytes, or refused. A file given with `--hook` counts as approved as it is now (the user
 *   named it, as everywhere else). A hook's approval admits the files it covers too (its imports, as when
 *   the hook runs); a test's approval pins the test alone.
 * - `test --approve` is the author's loop: every guarded test runs, with the files it and its hook cover
 *   admitted as they are now (pinned: read and hashed once, before the run), and afterwards exactly those
 *   pinned bytes are approved for the tests that passed — never a file a failing test pinned too.
 *
 * This holds however the tests were named: discovered next to the hooks, or given as files or folders.
 * What an approved test starts by itself — a process, a `Worker` (Bun's loader plugins do not reach
 * workers) — is that test's choice: approving a test file approves what it does.
 */

/** A test file that will not run, and what would let it. */
export interface SkippedTest {
	path: string;
	/** Why, in words. */
	why: string;
	/** Paths to approve so that it runs (empty when approval cannot help, e.g. an unreadable file). */
	approve: string[];
}

/** A guarded file not approved yet, read once for `test --approve`: the bytes that run, and what they cover. */
export interface PinnedFile {
	path: string;
	bytes: Uint8Array;
	/** The other files the approval covers (real path → SHA-256): its import graph, the files beside it. */
	files: Record<string, string>;
}

/** What {@link selectTests} decided. */
export interface TestSelection {
	run: string[];
	skipped: SkippedTest[];
	gate: TestGateConfig;
	/** With `pin`: each test to run → the files (the test, its hook) that its passing would approve. */
	pins: Map<string, PinnedFile[]>;
}

/** Inputs of {@link selectTests}. */
export interface SelectTestsOptions {
	/** The project directory. */
	cwd: string;
	store: TrustStore;
	/** Folders of the project-level hooks (discovered and listed in the project's settings). */
	hookDirs: string[];
	/** Files given with `--hook`, resolved: the user's choice, admitted as they are now. */
	given: string[];
	/** Folders of this run that are ours, not the project's (the preload's temp dir, the library source). */
	ours: string[];
	/** The signed team lists the user trusts (src/trust/team-list.ts): a file on one counts as approved. */
	team?: TeamApprovals | undefined;
	/** `test --approve`: run the tests of files awaiting approval too, pinned as they are now (see above). */
	pin?: boolean | undefined;
}

const real = (path: string): string | undefined => {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
};

const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/** `arg` as one POSIX shell word, so the printed command can be pasted. */
export const shellQuote = (arg: string): string => (/^[\w@%+=:,./~-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/** The name a test file tests: `guard.test.ts` → `guard`; `undefined` for a file not named `*.test.*`. */
function testedName(file: string): string | undefined {
	const at = file.lastIndexOf(".test.");
	return at > 0 ? file.slice(0, at) : undefined;
}

/** Whether `path` is a test file (`*.test.*`): its approval pins it alone, never what it imports. */
const isTestFile = (path: string) => testedName(basename(path)) !== undefined;

/** Files beside `test` (a real path) named after it: the hook it tests. */
function testedHooks(test: string): string[] {
	const name = testedName(basename(test));
	if (name === undefined) return [];
	const dir = dirname(test);
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	return names
		.filter((file) => file !== basename(test) && (file === name || file.slice(0, file.lastIndexOf(".")) === name))
		.map((file) => join(dir, file))
		.filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile())
		.sort();
}

/**
 * Decides which of `candidates` (absolute test file paths) run, and builds the gate for the run. Uses
 * the trust store's own checks and approvals; nothing is written.
 */
export async function selectTests(candidates: string[], options: SelectTestsOptions): Promise<TestSelection> {
	const roots = [...new Set([options.cwd, ...options.hookDirs].map((dir) => real(dir) ?? resolve(dir)))];
	const exempt = [...new Set([userAgentDir(), ...options.ours].flatMap((dir) => real(dir) ?? []))].filter(
		(dir) => !roots.includes(dir), // never exempt a whole guarded root (a project that is the user directory)
	);
	const guarded = (path: string) => roots.some((root) => inside(path, root)) && !exempt.some((dir) => inside(path, dir));

	const approved: Record<string, string> = {};
	const admit = (files: Readonly<Record<string, string>>) => {
		for (const [file, sha] of Object.entries(files)) approved[file] ??= sha;
	};
	const approvals = (await options.store.list()).filter((entry) => !entry.path.includes("#"));
	for (const entry of approvals) approved[entry.path] = entry.sha256;
	// What a hook's approval covers loads too (its imports), as when the hook runs; a test's approval pins the test alone.
	for (const entry of approvals) if (!isTestFile(entry.path)) admit(entry.files ?? {});
	const given = new Set<string>();
	for (const path of options.given) {
		const key = real(path);
		if (!key || !statSync(key, { throwIfNoEntry: false })?.isFile()) continue;
		const sha256 = await hashFile(key).catch(() => undefined);
		if (!sha256) continue;
		given.add(key);
		approved[key] = sha256;
	}

	/** Why `path` may not run (undefined: it may). */
	const verdict = async (path: string): Promise<{ why: string; approvable: boolean } | undefined> => {
		const key = real(path);
		if (key && given.has(key)) return undefined;
		try {
			const check = await options.store.check(path);
			// A hook's approval covers the files it runs (its imports): one of them edited makes it changed too.
			const covered = check.trusted && !isTestFile(check.key) ? verifyCovered(check.key, check.files) : undefined;
			if (covered && "changed" in covered)
				return { why: `changed since it was approved (${covered.changed}, which it runs)`, approvable: true };
			if (check.trusted) return undefined;
			const shared = await teamApproved(options.team, check, false);
			if (shared) {
				approved[check.key] = check.sha256;
				if (!isTestFile(check.key)) admit(shared.approved);
				return undefined;
			}
			return { why: check.reason === "changed" ? "changed since it was approved" : "not approved", approvable: true };
		} catch (error) {
			return { why: (error as Error).message, approvable: false };
		}
	};

	/** `path` read once, with what its approval would cover, admitted to the gate as it is now; `undefined`: it cannot be. */
	const pinned = new Map<string, PinnedFile | string>();
	const pin = (path: string): PinnedFile | string => {
		const key = real(path) ?? path;
		const known = pinned.get(key);
		if (known !== undefined) return known;
		let result: PinnedFile | string;
		try {
			const bytes = readHookFile(trustKey(path));
			const files = Object.fromEntries([...coveredFiles(key, bytes)].map(([file, content]) => [file, sha256Hex(content)]));
			approved[key] = sha256Hex(bytes);
			if (!isTestFile(key)) for (const [file, sha] of Object.entries(files)) approved[file] = sha;
			result = { path, bytes, files };
		} catch (error) {
			result = (error as Error).message;
		}
		pinned.set(key, result);
		return result;
	};

	const run: string[] = [];
	const skipped: SkippedTest[] = [];
	const pins = new Map<string, PinnedFile[]>();
	for (const path of candidates) {
		const key = real(path);
		if (key === undefined) {
			skipped.push({ path, why: "cannot resolve its path", approve: [] });
			continue;
		}
		if (!guarded(key)) {
			run.push(path);
			continue;
		}
		const reasons: string[] = [];
		const approve: string[] = [];
		let approvable = true;
		const own = await verdict(path);
		if (own) {
			reasons.push(own.why);
			if (own.approvable) approve.push(path);
			approvable &&= own.approvable;
		}
		for (const hook of testedHooks(key)) {
			if (!guarded(hook)) continue;
			const found = await verdict(hook);
			if (!found) continue;
			reasons.push(`it tests ${hook}, which is ${found.why}`);
			if (found.approvable) approve.push(hook);
			approvable &&= found.approvable;
		}
		if (reasons.length === 0) run.push(path);
		else if (options.pin && approvable) {
			// The author's loop: these files run as they are now, and are approved if the test passes.
			const files = approve.map(pin);
			const problem = files.find((file): file is string => typeof file === "string");
			if (problem === undefined) {
				run.push(path);
				pins.set(path, files as PinnedFile[]);
			} else skipped.push({ path, why: problem, approve: [] });
		} else skipped.push({ path, why: reasons.join("; "), approve: approvable ? approve : [] });
	}
	return { run, skipped, gate: { roots, exempt, approved }, pins };
}

/** The line `xcsh-hooks test` prints for a skipped test file. */
export function skippedLine(skip: SkippedTest): string {
	const how = skip.approve.length > 0 ? ` (xcsh-hooks trust approve ${skip.approve.map(shellQuote).join(" ")})` : "";
	return `skipped ${skip.path}: ${skip.why}${how}`;
}
