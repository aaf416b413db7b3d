#!/usr/bin/env bun
/**
 * `bun run bench`: measures the performance targets of SPEC §11 side by side in one run and prints
 * each as a ratio, with `met` / `MISSED` against its budget. It is a report: the exit code is 0
 * even when a budget is missed (1 only when the bench itself fails).
 *
 *   bun run bench [--markdown]     --markdown also prints the results as tables for the README
 *
 * Sections: in-process dispatch (`emit`, chained, short-circuit) against a hand-written `Map` +
 * `await` loop and hookable; `HookToolWrapper` against a direct call; `execCommand` against a raw
 * `Bun.spawn`; discovery of 1,000 files; `dist/xcsh-hooks` cold starts against a trivial compiled
 * executable (built first when missing or stale), its peak RSS, and `serve` round trips.
 */
import { cpus } from "node:os";
import { benchDiscovery } from "./_bench/discovery.ts";
import { benchDispatch } from "./_bench/dispatch.ts";
import { benchExec } from "./_bench/exec.ts";
import { benchExecutable } from "./_bench/executable.ts";
import { cleanup } from "./_bench/fixtures.ts";
import { Report } from "./_bench/report.ts";

/** CPU model, core count, OS and Bun version: what the numbers below depend on. */
function machine(): string {
	const list = cpus();
	const model = list[0]?.model.trim() || "unknown CPU";
	return `${model}, ${list.length} cores, ${process.platform} ${process.arch}, Bun ${Bun.version} (${Bun.revision.slice(0, 9)})`;
}

async function main(): Promise<void> {
	const markdown = Bun.argv.includes("--markdown");
	const started = performance.now();
	const report = new Report();
	await Bun.write(Bun.stdout, `xcsh-hooks bench — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC\nmachine: ${machine()}\n`);
	try {
		await benchDispatch(report);
		await benchExec(report);
		await benchDiscovery(report);
		await benchExecutable(report);
	} finally {
		cleanup();
	}
	await report.finish();
	await Bun.write(Bun.stdout, `(bench took ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
	if (markdown) await Bun.write(Bun.stdout, `\n${report.markdown()}\n`);
}

await main();
