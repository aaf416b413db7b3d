/**
 * The guard's own corpus: every case through `createShellGuard`, per category, with the counts
 * printed. A category passes only when every one of its cases gets its verdict (and rule).
 */
import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createShellGuard, DEFAULT_PACKS } from "../../src/guards/index.ts";
import type { GuardCase } from "./corpus/_case.ts";
import { CATEGORIES } from "./corpus/index.ts";

/** A project directory that is not under a temp dir's rules: the guard treats it as the project. */
const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "project-")));

const guards = new Map<string, ReturnType<typeof createShellGuard>>();
function guardFor(packs: GuardCase["packs"]) {
	const key = (packs ?? []).join(",");
	let guard = guards.get(key);
	if (!guard) guards.set(key, (guard = createShellGuard({ packs: [...DEFAULT_PACKS, ...(packs ?? [])] })));
	return guard;
}

/** What went wrong with one case, or `undefined` when it got its verdict. */
async function check(c: GuardCase): Promise<string | undefined> {
	const decision = await guardFor(c.packs).decide(c.command, { cwd: project });
	const shown = JSON.stringify(c.command.length > 120 ? `${c.command.slice(0, 120)}…` : c.command);
	if (decision.block !== c.block)
		return `${shown}: expected ${c.block ? "block" : "allow"}, got ${decision.block ? `block by ${decision.rule} (${decision.reason})` : "allow"}`;
	// The rule's id starts with the one named (`git/checkout-worktree` also names `git/checkout-worktree-paths`).
	if (c.block && c.rule && !decision.rule?.startsWith(c.rule)) return `${shown}: blocked by ${decision.rule}, expected ${c.rule}`;
	if (decision.block && !decision.reason?.trim()) return `${shown}: blocked without a reason`;
	if (decision.reason?.includes("\n")) return `${shown}: the reason spans lines`;
	return undefined;
}

test("the corpus has at least 600 cases", () => {
	const counts = Object.entries(CATEGORIES).map(([name, cases]) => `${name}: ${cases.length}`);
	const total = Object.values(CATEGORIES).reduce((sum, cases) => sum + cases.length, 0);
	console.log(`guard corpus, ${total} cases — ${counts.join(", ")}`);
	expect(total).toBeGreaterThanOrEqual(600);
});

for (const [name, cases] of Object.entries(CATEGORIES))
	test(`corpus: ${name}`, async () => {
		const failures: string[] = [];
		for (const c of cases) {
			const problem = await check(c);
			if (problem) failures.push(problem);
		}
		console.log(`${name}: ${cases.length - failures.length}/${cases.length} pass`);
		expect(failures).toEqual([]);
	});
