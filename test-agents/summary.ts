import type { Check } from "./checks.ts";

/** One case's outcome, for the summary. */
export interface CaseReport {
	agent: string;
	name: string;
	checks: Check[];
	ms: number;
}

const MARK = { pass: "✓", fail: "✗", skip: "-" } as const;

/** Prints the header lines, every check and the totals on stdout; returns true when any check failed. */
export function printSummary(header: string[], reports: CaseReport[], totalMs: number): boolean {
	const lines = ["", "test:agents summary", ...header.map((h) => `  ${h}`)];
	const count = { pass: 0, fail: 0, skip: 0 };
	for (const r of reports) {
		lines.push(`${r.agent} — ${r.name} (${(r.ms / 1000).toFixed(1)} s)`);
		for (const c of r.checks) {
			count[c.status]++;
			lines.push(`  ${MARK[c.status]} ${c.name}${c.detail && c.status !== "pass" ? `\n      ${c.detail}` : ""}`);
		}
	}
	lines.push(`${count.pass} passed, ${count.fail} failed, ${count.skip} skipped in ${(totalMs / 1000).toFixed(1)} s`);
	console.log(lines.join("\n"));
	return count.fail > 0;
}
