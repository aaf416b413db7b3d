/**
 * The guard's own corpus: every case through `createShellGuard`, per category, with the counts
 * printed. A category passes only when every one of its cases gets its verdict (and rule).
 */
import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createShellGuard, DEFAULT_PACKS } from "../../src/guards/index.ts";
import type { GuardCase } from "./corpus/_case.ts";
import { BYPASS, WRAPPED_HARMLESS } from "./corpus/bypass.ts";
import { BYPASS_35, WRAPPED_HARMLESS_35 } from "./corpus/bypass-35.ts";
import { DATA } from "./corpus/data.ts";
import { EDGE } from "./corpus/edge.ts";
import { EVERYDAY_ALLOW } from "./corpus/everyday.ts";
import { FAMILIES_ALLOW, FAMILIES_BLOCK } from "./corpus/families.ts";
import { GIT_PARSING_ALLOW, GIT_PARSING_BLOCK } from "./corpus/git-parsing.ts";
import { ISSUE_ALLOW, ISSUE_BLOCK } from "./corpus/issue.ts";
import { MUST_ALLOW } from "./corpus/must-allow.ts";
import { MUST_BLOCK } from "./corpus/must-block.ts";
import { OPT_IN } from "./corpus/opt-in.ts";
import { WITHOUT_RM_BLOCK } from "./corpus/without-rm.ts";

/** A project directory that is not under a temp dir's rules: the guard treats it as the project. */
const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "project-")));

export const CATEGORIES: Record<string, GuardCase[]> = {
	"issue: must block": ISSUE_BLOCK,
	"issue: must allow": ISSUE_ALLOW,
	"must block": MUST_BLOCK,
	"must allow": MUST_ALLOW,
	"bypass attempts": BYPASS,
	"wrapped but harmless": WRAPPED_HARMLESS,
	"data, not code": DATA,
	"edge cases": EDGE,
	"opt-in packs": OPT_IN,
	"git as git reads it: must block": GIT_PARSING_BLOCK,
	"git as git reads it: must allow": GIT_PARSING_ALLOW,
	"destruction without rm: must block": WITHOUT_RM_BLOCK,
	"a normal day: must allow": EVERYDAY_ALLOW,
	"every family, opt-in: blocked with its pack, allowed without": FAMILIES_BLOCK,
	"every family, opt-in: left alone with its pack on": FAMILIES_ALLOW,
	"bypass attempts on issue 35's classes": BYPASS_35,
	"issue 35's ways around harmless commands": WRAPPED_HARMLESS_35,
};

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
