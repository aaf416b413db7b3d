/** Collects the bench's lines and budgets, prints them as they come, and renders the summary. */

/** One budget of docs/contract.md#performance-budgets: a measured ratio against its ceiling. */
export interface Budget {
	name: string;
	ratio: number;
	target: number;
	/** Why the number is what it is, when that needs saying (e.g. "serve not available"). */
	note?: string | undefined;
	/** `ratio` (the default: a ratio to a baseline, printed `1.23×`) or `ms` (an absolute time). */
	unit?: "ratio" | "ms" | undefined;
	/** How the value spread over the rounds it is the median of (printed after it). */
	spread?: string | undefined;
}

/** A ratio's spread as printed: `IQR 1.52–1.63×, min–max 1.31–2.10×, 120 rounds`. */
export function formatSpread(
	s: { q1: number; q3: number; min: number; max: number; rounds: number },
	unit: Budget["unit"] = "ratio",
): string {
	const f = (v: number) => formatBudget(v, unit);
	return `IQR ${f(s.q1)}–${f(s.q3)}, min–max ${f(s.min)}–${f(s.max)}, ${s.rounds} rounds`;
}

/** A budget's value as printed: `1.23×` or `0.412 ms`. */
function formatBudget(value: number, unit: Budget["unit"]): string {
	return unit === "ms" ? `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms` : formatRatio(value);
}

/** A line of the results table: what was measured and its numbers, as text. */
export interface Row {
	section: string;
	label: string;
	value: string;
}

/** How many times the rounds of process timings `--check` runs (see {@link Report.check}). */
export const CHECK_ROUND_FACTOR = 3;

const write = (text: string) => Bun.write(Bun.stdout, `${text}\n`);

/** Formats a duration given in ns with a unit that keeps 3 significant digits. */
export function formatNs(ns: number): string {
	if (ns < 1_000) return `${ns.toFixed(0)} ns`;
	if (ns < 1_000_000) return `${(ns / 1_000).toFixed(ns < 10_000 ? 2 : 1)} µs`;
	if (ns < 1_000_000_000) return `${(ns / 1_000_000).toFixed(ns < 10_000_000 ? 2 : 1)} ms`;
	return `${(ns / 1_000_000_000).toFixed(2)} s`;
}

export function formatRatio(ratio: number): string {
	return `${ratio < 0.1 ? ratio.toFixed(3) : ratio.toFixed(2)}×`;
}

export function formatBytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The bench's output: sections of aligned lines, then the budgets and a summary line. */
export class Report {
	/**
	 * `--check`: budgets decide the exit code, so the process timings run {@link CHECK_ROUND_FACTOR}×
	 * the rounds: the median a budget is judged on then moves less from noise than a budget's margin.
	 */
	readonly check: boolean;
	readonly rows: Row[] = [];
	readonly budgets: Budget[] = [];
	private current = "";

	constructor(options: { check?: boolean } = {}) {
		this.check = options.check ?? false;
	}

	/** The rounds to run where a plain run takes `rounds`. */
	rounds(rounds: number): number {
		return this.check ? rounds * CHECK_ROUND_FACTOR : rounds;
	}

	async section(title: string, detail?: string): Promise<void> {
		this.current = title;
		await write(`\n${title}${detail ? `  (${detail})` : ""}`);
	}

	/** A result line; it also becomes a row of the markdown table. */
	async line(label: string, value: string): Promise<void> {
		this.rows.push({ section: this.current, label, value });
		await write(`  ${label.padEnd(44)} ${value}`);
	}

	/** A remark that is not a result (skipped parts, how something was built). */
	async note(text: string): Promise<void> {
		await write(`  · ${text}`);
	}

	budget(name: string, ratio: number, target: number, note?: string, unit?: Budget["unit"], spread?: string): void {
		this.budgets.push({ name, ratio, target, note, unit, spread });
	}

	/** Budgets missed, and budgets that could not be measured (both fail `--check`). */
	failed(): Budget[] {
		return this.budgets.filter((b) => Number.isNaN(b.ratio) || b.ratio > b.target);
	}

	/** Prints every budget as `met` / `MISSED` with its ratio and target, then one summary line. */
	async finish(): Promise<void> {
		await write("\nbudgets (docs/contract.md#performance-budgets)");
		for (const b of this.budgets) {
			const status = Number.isNaN(b.ratio) ? "n/a   " : b.ratio <= b.target ? "met   " : "MISSED";
			const measured = Number.isNaN(b.ratio) ? "—" : formatBudget(b.ratio, b.unit);
			await write(
				`  ${status}  ${b.name.padEnd(56)} ${measured.padStart(9)}  (target ≤ ${formatBudget(b.target, b.unit)})${b.note ? `  ${b.note}` : ""}${b.spread ? `\n          ${"".padEnd(56)} ${b.spread}` : ""}`,
			);
		}
		const measured = this.budgets.filter((b) => !Number.isNaN(b.ratio));
		const met = measured.filter((b) => b.ratio <= b.target).length;
		const missed = measured.filter((b) => b.ratio > b.target).map((b) => b.name);
		const unmeasured = this.budgets.length - measured.length;
		await write(
			`\nsummary: ${met}/${this.budgets.length} budgets met` +
				(missed.length ? `; MISSED: ${missed.join(", ")}` : "") +
				(unmeasured ? `; ${unmeasured} not measured` : ""),
		);
	}

	/** The results and budgets as markdown tables (for docs/performance.md). */
	markdown(): string {
		const lines = ["| section | measurement | result |", "|---|---|---|"];
		for (const row of this.rows) lines.push(`| ${row.section} | ${row.label} | ${row.value.trim().replace(/\s{2,}/g, " ")} |`);
		lines.push("", "| budget | measured | spread over the rounds | target | status |", "|---|---|---|---|---|");
		for (const b of this.budgets) {
			const status = Number.isNaN(b.ratio) ? "n/a" : b.ratio <= b.target ? "met" : "**MISSED**";
			lines.push(
				`| ${b.name}${b.note ? ` (${b.note})` : ""} | ${Number.isNaN(b.ratio) ? "—" : formatBudget(b.ratio, b.unit)} | ${b.spread ?? ""} | ≤ ${formatBudget(b.target, b.unit)} | ${status} |`,
			);
		}
		return lines.join("\n");
	}
}
