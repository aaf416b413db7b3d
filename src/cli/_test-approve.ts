import { basename, dirname, join } from "pathe";
import { TrustStore, trustKey } from "../trust/trust-store.ts";
import type { PinnedFile, SkippedTest, TestSelection } from "./_test-trust.ts";
import { shellQuote } from "./_test-trust.ts";
import { writeErr, writeOut } from "./_shared.ts";

/*
 * How `xcsh-hooks test` ends: a test skipped because it (or its hook) awaits approval fails the run, so
 * CI never goes green without running it; and `test --approve`, the author's edit–test–approve loop.
 */

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/**
 * The exit code of a run that skipped `skipped`: the run's own `code` when it failed, else 1 when a test
 * was skipped — for approval (unless `allowUnapproved`: `--skip-unapproved`) or because it cannot be
 * read — each one named at the end of the output, with what to do.
 */
export async function failSkipped(code: number, skipped: SkippedTest[], allowUnapproved: boolean): Promise<number> {
	const awaiting = skipped.filter((s) => s.approve.length > 0);
	const broken = skipped.filter((s) => s.approve.length === 0);
	const lines: string[] = [];
	if (awaiting.length > 0 && !allowUnapproved)
		lines.push(
			`xcsh-hooks test: ${awaiting.length} ${plural(awaiting.length, "test file was", "test files were")} skipped because ${plural(awaiting.length, "it", "they")} or the hooks ${plural(awaiting.length, "it tests are", "they test are")} not approved, so the run fails:`,
			...awaiting.map((s) => `  ${s.path}`),
			"Review them, then approve them (the xcsh-hooks trust approve commands above; for your own files, xcsh-hooks test --approve runs them and approves those that pass), or pass --skip-unapproved to let the run pass without them.",
		);
	if (broken.length > 0)
		lines.push(
			`xcsh-hooks test: ${broken.length} ${plural(broken.length, "test file", "test files")} could not be checked, so the run fails:`,
			...broken.map((s) => `  ${s.path}: ${s.why}`),
		);
	if (lines.length > 0) await writeErr(lines.join("\n"));
	return code !== 0 ? code : lines.length > 0 ? 1 : 0;
}

/**
 * `test --approve`: each test file runs on its own (so its result is its own), then the files pinned
 * for the tests that passed are approved — exactly the bytes that ran, with what they cover. A file is
 * never approved when a test that pinned it failed; a project hook awaiting approval that no test ran
 * stays as it is. Says which is which; the exit code is 1 when a test failed (or could not be checked).
 */
export async function approvePassing(
	selection: TestSelection,
	bunTest: (files: string[]) => Promise<number>,
	unapproved: string[],
): Promise<number> {
	const passed: string[] = [];
	const failed: string[] = [];
	for (const file of selection.run) ((await bunTest([file])) === 0 ? passed : failed).push(file);
	const keyOf = (pin: PinnedFile) => trustKey(pin.path);
	const spoilt = new Set(failed.flatMap((file) => (selection.pins.get(file) ?? []).map(keyOf)));
	const store = new TrustStore();
	const lines: string[] = [];
	const done = new Set<string>();
	for (const file of passed)
		for (const pin of selection.pins.get(file) ?? []) {
			const key = keyOf(pin);
			if (done.has(key) || spoilt.has(key)) continue;
			done.add(key);
			await store.approve(pin.path, pin.bytes, pin.files);
			const covers = Object.keys(pin.files).length;
			lines.push(`approved ${pin.path}${covers ? ` with the ${covers === 1 ? "file" : `${covers} files`} it runs` : ""}`);
		}
	for (const key of spoilt) lines.push(`not approved ${key}: a test of it failed`);
	const tested = new Set([...selection.pins.values()].flat().map(keyOf));
	for (const hook of unapproved) {
		const key = (() => {
			try {
				return trustKey(hook);
			} catch {
				return hook;
			}
		})();
		if (tested.has(key) || done.has(key)) continue;
		const name = basename(hook).replace(/\.[^.]*$/, "");
		lines.push(
			`not approved ${hook}: no test of it ran (add ${join(dirname(hook), `${name}.test.ts`)}, or review it and run xcsh-hooks trust approve ${shellQuote(hook)})`,
		);
	}
	if (lines.length === 0) lines.push("Nothing to approve: every test that ran was already approved.");
	await writeOut(lines.join("\n"));
	const broken = await failSkipped(0, selection.skipped, true);
	return failed.length > 0 ? 1 : broken;
}
