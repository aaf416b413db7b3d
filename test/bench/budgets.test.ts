/** The bench's budgets: judged on the median of per-round ratios, printed with their spread; `--check` runs more rounds. */
import { expect, test } from "bun:test";
import { ratioSpread } from "../../scripts/_bench/processes.ts";
import { CHECK_ROUND_FACTOR, formatSpread, Report } from "../../scripts/_bench/report.ts";

test("the spread of per-round ratios: median, quartiles and extremes over the rounds", () => {
	const base = { ms: [10, 10, 10, 10, 10] };
	const runs = { ms: [20, 25, 30, 22, 100] }; // one noisy round
	const spread = ratioSpread(runs, base);
	expect(spread).toEqual({ median: 2.5, q1: 2.2, q3: 3, min: 2, max: 10, rounds: 5 });
	expect(formatSpread(spread)).toBe("IQR 2.20×–3.00×, min–max 2.00×–10.00×, 5 rounds");
});

test("--check runs more rounds than a plain run", () => {
	expect(CHECK_ROUND_FACTOR).toBeGreaterThanOrEqual(3);
	expect(new Report({ check: true }).rounds(40)).toBe(40 * CHECK_ROUND_FACTOR);
	expect(new Report().rounds(40)).toBe(40);
});

test("a budget is printed and rendered with its spread and note", () => {
	const report = new Report();
	report.budget("cold call vs trivial", 2.4, 2.5, "same run", undefined, "IQR 2.30×–2.50×, min–max 2.10×–3.00×, 120 rounds");
	expect(report.failed()).toEqual([]);
	const table = report.markdown();
	expect(table).toContain("| cold call vs trivial (same run) | 2.40× | IQR 2.30×–2.50×, min–max 2.10×–3.00×, 120 rounds | ≤ 2.50× | met |");
});
