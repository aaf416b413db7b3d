#!/usr/bin/env bun
/**
 * `bun run bench`: measures the performance targets of docs/contract.md#performance-budgets side by side in one run and prints
 * each as a ratio (or, for `serve --http`, a latency), with `met` / `MISSED` against its budget.
 *
 *   bun run bench [--check] [--markdown] [--only SECTION[,SECTION…]]
 *
 *   --check      exit 1 when a budget is missed or could not be measured (for CI and pre-release)
 *   --markdown   also rewrite docs/performance.md from this run (print it instead when --only picks sections)
 *   --only       run only these sections: dispatch, exec, discovery, executable, agents, entry, http, guard, pi
 *
 * Ratios of processes are medians of per-round ratios: every round starts each command once, in a
 * rotating order, so a noisy moment on a shared machine hits both sides of a ratio. Each budget prints
 * how its value spread (quartiles and extremes of the per-round ratios; `serve --http`: of the
 * blocks of requests). `--check` runs three times the rounds, so that the median a budget is judged
 * on does not cross a budget's margin from noise alone (the whole run stays a few minutes). Without
 * `--check` the exit code is 0 even when a budget is missed (1 only when the bench itself fails).
 *
 * Sections: in-process dispatch (`emit`, chained, short-circuit) against a hand-written `Map` +
 * `await` loop and hookable; `HookToolWrapper` against a direct call; `execCommand` against a raw
 * `Bun.spawn`; discovery of 1,000 files; `dist/xcsh-hooks` cold starts against a trivial compiled
 * executable (built first when missing or stale), its peak RSS, and `serve` round trips; agent calls
 * (`bridge claude` against the same guard in Node, Python and Bun, and where its start-up goes); what the
 * shell around `install`'s entries adds to each agent call (scripts/_bench/entry.ts);
 * `serve --http` request latency; one shell-guard decision in-process and the size its parser adds; one
 * tool call forwarded by pi's extension in Node (reported, no budget).
 */
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { benchAgentCalls } from "./_bench/agents.ts";
import { benchDiscovery } from "./_bench/discovery.ts";
import { benchDispatch } from "./_bench/dispatch.ts";
import { benchEntry } from "./_bench/entry.ts";
import { benchExec } from "./_bench/exec.ts";
import { benchExecutable } from "./_bench/executable.ts";
import { benchGuard } from "./_bench/guard.ts";
import { cleanup } from "./_bench/fixtures.ts";
import { benchHttp } from "./_bench/http.ts";
import { benchInProcess } from "./_bench/inprocess.ts";
import { benchPi } from "./_bench/pi.ts";
import { performanceSection } from "./_bench/markdown.ts";
import { Report } from "./_bench/report.ts";

/** The page `--markdown` rewrites. */
const PERFORMANCE_PAGE = join(import.meta.dir, "..", "docs", "performance.md");

/** The 1-minute load average when the run started: other work on the machine moves every number. */
const LOAD_AT_START = loadavg()[0] ?? 0;

/** CPU model, core count, memory, OS and Bun version (and the load at the start): what the numbers below depend on. */
export function machine(): string {
	const list = cpus();
	const model = list[0]?.model.trim() || "unknown CPU";
	const memory = `${Math.round(totalmem() / 1024 ** 3)} GB`;
	return `${model}, ${list.length} cores, ${memory}, ${process.platform} ${process.arch}, Bun ${Bun.version} (${Bun.revision.slice(0, 9)}), load average ${LOAD_AT_START.toFixed(1)} at the start`;
}

const SECTIONS = {
	dispatch: benchDispatch,
	exec: benchExec,
	discovery: benchDiscovery,
	executable: benchExecutable,
	agents: benchAgentCalls,
	entry: benchEntry,
	http: benchHttp,
	guard: benchGuard,
	inprocess: benchInProcess,
	pi: benchPi,
} satisfies Record<string, (report: Report) => Promise<void>>;
type Section = keyof typeof SECTIONS;

/** `--only a,b` (or `--only=a,b`), checked against the section names. */
function selectedSections(argv: readonly string[]): Section[] {
	const at = argv.findIndex((arg) => arg === "--only" || arg.startsWith("--only="));
	if (at < 0) return Object.keys(SECTIONS) as Section[];
	const value = argv[at]?.includes("=") ? argv[at]?.slice("--only=".length) : argv[at + 1];
	const names = (value ?? "").split(",").filter(Boolean);
	const unknown = names.filter((name) => !Object.hasOwn(SECTIONS, name));
	if (names.length === 0 || unknown.length > 0)
		throw new Error(`--only ${value ?? ""}: expected section names among ${Object.keys(SECTIONS).join(", ")}`);
	return names as Section[];
}

async function main(): Promise<number> {
	const argv = Bun.argv.slice(2);
	const markdown = argv.includes("--markdown");
	const check = argv.includes("--check");
	const sections = selectedSections(argv);
	const started = performance.now();
	const report = new Report({ check });
	const when = new Date().toISOString().slice(0, 16).replace("T", " ");
	await Bun.write(Bun.stdout, `xcsh-hooks bench — ${when} UTC\nmachine: ${machine()}\n`);
	try {
		for (const name of sections) await SECTIONS[name](report);
	} finally {
		cleanup();
	}
	await report.finish();
	const seconds = ((performance.now() - started) / 1000).toFixed(0);
	await Bun.write(Bun.stdout, `(bench took ${seconds} s)\n`);
	if (markdown) {
		const page = `${performanceSection(report, { machine: machine(), when, sections })}\n`;
		if (sections.length === Object.keys(SECTIONS).length) {
			await Bun.write(PERFORMANCE_PAGE, page);
			await Bun.write(Bun.stdout, `wrote ${PERFORMANCE_PAGE}\n`);
		} else await Bun.write(Bun.stdout, `\n${page}`);
	}
	const failed = report.failed();
	if (check && failed.length > 0) {
		await Bun.write(
			Bun.stderr,
			`bench --check: ${failed.length} budget(s) missed or not measured: ${failed.map((b) => b.name).join("; ")}\n`,
		);
		return 1;
	}
	return 0;
}

process.exitCode = await main();
