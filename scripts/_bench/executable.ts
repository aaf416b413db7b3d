/**
 * The compiled executable: `emit tool_call` cold starts against a trivial compiled program, peak
 * RSS, and `serve` round trips against one process per event.
 */
import { join, relative } from "pathe";
import { BIN, ensureExecutable, ROOT, trivialExecutable } from "./binary.ts";
import { BENCH_DIR, systemTempEntries, tempDir, writeGuardHooks } from "./fixtures.ts";
import { median, percentile } from "./micro.ts";
import { type Command, lineReader, pairedRatio, peakRss, ratioSpread, type Runs, timeProcesses } from "./processes.ts";
import { formatBytes, formatNs, formatRatio, formatSpread, type Report } from "./report.ts";

const EVENT = JSON.stringify({ toolName: "bash", input: { command: "ls -la" } });
const ROUNDS = 40;

function describeRuns(runs: Runs): string {
	return `${formatNs(median(runs.ms) * 1e6).padStart(8)} median  ${formatNs(percentile(runs.ms, 90) * 1e6).padStart(8)} p90`;
}

/** Median time of one `toolCall` round trip to a running `serve`; undefined when serve is not there. */
async function serveRoundTrip(hooks: string[], env: Record<string, string>, cwd: string): Promise<number[] | undefined> {
	const argv = [BIN, "serve", "--no-discovery", ...hooks.flatMap((hook) => ["--hook", hook])];
	const proc = Bun.spawn(argv, { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
	const next = lineReader(proc.stdout);
	const ready = await Promise.race([
		(async () => {
			for (let line = await next(); line !== undefined; line = await next()) if (line.includes('"ready"')) return true;
			return false;
		})(),
		Bun.sleep(10_000).then(() => false),
	]);
	if (!ready) {
		proc.kill();
		await proc.exited;
		return undefined;
	}
	// A server that stops answering must not hang the bench: killing it ends its stdout.
	const guard = setTimeout(() => proc.kill(), 30_000);
	const times: number[] = [];
	for (let id = 1; id <= 320; id++) {
		const request = `${JSON.stringify({ id, method: "toolCall", params: JSON.parse(EVENT) })}\n`;
		const start = Bun.nanoseconds();
		proc.stdin.write(request);
		proc.stdin.flush();
		for (let line = await next(); ; line = await next()) {
			if (line === undefined) throw new Error("serve closed its stdout before answering");
			if (line.startsWith(`{"id":${id},`)) break;
		}
		if (id > 20) times.push((Bun.nanoseconds() - start) / 1e6);
	}
	clearTimeout(guard);
	proc.stdin.end();
	await proc.exited;
	return times;
}

/** Every measurement of the compiled executable. */
export async function benchExecutable(report: Report): Promise<void> {
	await report.section("executable", `cold start, ${report.rounds(ROUNDS)} interleaved runs each; event JSON on a stdin pipe`);
	await ensureExecutable(report);
	const trivial = await trivialExecutable();
	await report.note(`projects, homes and hooks under ${relative(ROOT, BENCH_DIR) || BENCH_DIR}`);
	const crowded = systemTempEntries();
	if (crowded > 1000)
		await report.note(
			`the system temp dir holds ${crowded.toLocaleString("en")} entries: Bun lists every directory above the working directory and the first imported hook once per process, so working there would add milliseconds to both sides`,
		);

	const project = tempDir("project");
	const home = tempDir("home");
	const hooksDir = tempDir("hooks");
	const hooks = writeGuardHooks(hooksDir, 10);
	// The same ten hooks found by discovery instead, in the user's own folder (no trust approval needed).
	const discoveryHome = tempDir("discovery-home");
	writeGuardHooks(join(discoveryHome, ".xcsh", "agent", "hooks"), 10);

	const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
	const emit = (name: string, args: string[], envOverride = env): Command => ({
		name,
		argv: [BIN, "emit", "tool_call", ...args],
		stdin: EVENT,
		cwd: project,
		env: envOverride,
	});
	const withHooks = (n: number) => hooks.slice(0, n).flatMap((hook) => ["--hook", hook]);
	const commands: Command[] = [
		{ name: "trivial", argv: [trivial], stdin: EVENT, cwd: project, env },
		emit("emit, 0 hooks", ["--no-discovery"]),
		emit("emit, 1 hook", ["--no-discovery", ...withHooks(1)]),
		emit("emit, 10 hooks", ["--no-discovery", ...withHooks(10)]),
		emit("emit, 10 hooks discovered", [], { ...env, HOME: discoveryHome }),
	];
	const runs = await timeProcesses(commands, report.rounds(ROUNDS));
	const [trivialRuns, , , tenRuns] = runs as [Runs, Runs, Runs, Runs, Runs];
	for (const [i, command] of commands.entries()) {
		const r = runs[i] as Runs;
		const label = command.name === "trivial" ? "trivial compiled executable" : `xcsh-hooks ${command.name}`;
		const ratio = i === 0 ? "" : `  → ${formatRatio(pairedRatio(r, trivialRuns))} trivial`;
		await report.line(label, describeRuns(r) + ratio);
		if (r.failure) await report.note(`${command.name} exited ${r.failure.code}: ${r.failure.stderr.split("\n")[0]}`);
	}
	const emitRatio = pairedRatio(tenRuns, trivialRuns);
	const spread = formatSpread(ratioSpread(tenRuns, trivialRuns));
	report.budget("emit tool_call, 10 hooks vs trivial exe cold start", emitRatio, 2.5, undefined, undefined, spread);

	await report.section("memory", "peak RSS, median of 5 runs");
	for (const i of [0, 3]) {
		const command = commands[i] as Command;
		const samples: number[] = [];
		for (let run = 0; run < 5; run++) samples.push(await peakRss(command));
		await report.line(i === 0 ? "trivial compiled executable" : "xcsh-hooks emit tool_call, 10 hooks", formatBytes(median(samples)));
	}

	await report.section("serve", "one long-lived process, 300 sequential toolCall requests, 10 hooks");
	let roundTrips: number[] | undefined;
	try {
		roundTrips = await serveRoundTrip(hooks, env, project);
	} catch (error) {
		await report.line("serve", `failed: ${error instanceof Error ? error.message : String(error)}`);
		report.budget("serve round trip vs process per event", Number.NaN, 0.05, "serve failed");
		return;
	}
	if (!roundTrips) {
		await report.line("serve", "not available");
		report.budget("serve round trip vs process per event", Number.NaN, 0.05, "serve: not available");
		return;
	}
	const ratio = median(roundTrips) / median(tenRuns.ms);
	await report.line(
		"serve round trip",
		`${formatNs(median(roundTrips) * 1e6).padStart(8)} median  ${formatNs(percentile(roundTrips, 90) * 1e6).padStart(8)} p90`,
	);
	await report.line(
		"one process per event (emit, 10 hooks)",
		`${formatNs(median(tenRuns.ms) * 1e6).padStart(8)} median  → serve is ${formatRatio(ratio)}`,
	);
	report.budget("serve round trip vs process per event", ratio, 0.05);
}
