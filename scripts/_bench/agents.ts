/**
 * Agent calls (docs/contract.md#performance-budgets, #bridges): `xcsh-hooks bridge claude` answering a real Claude Code PreToolUse
 * payload, as Claude starts it (one process per call), against the trivial compiled executable and
 * the same one-line guard written as a Node, Python and one-file Bun script; peak RSS of each; and,
 * from `XCSH_HOOKS_PROFILE=1`, where the bridge's cold start goes.
 */
import { readFileSync, realpathSync } from "node:fs";
import { join } from "pathe";
import { BIN, ensureExecutable, ROOT, run, settle, trivialExecutable } from "./binary.ts";
import { tempDir, writeFiles, writeGuardHooks } from "./fixtures.ts";
import { median, percentile } from "./micro.ts";
import { type Command, pairedRatio, peakRss, ratioSpread, type Runs, runOnce, timeProcesses } from "./processes.ts";
import { formatBytes, formatNs, formatRatio, formatSpread, type Report } from "./report.ts";
import { profileRows } from "./profile.ts";
import { socketFloor } from "./socket-floor.ts";
import { PACKAGE_VERSION } from "../../src/package-version.ts";

const ROUNDS = 40;
/** The row of the one-file Bun script: the floor a per-call budget is read against. */
const BARE_BUN = "bun guard.ts (one file, no library)";
/** The least a served call can cost: a minimal Bun client of the socket protocol and a server that runs nothing. */
const FLOOR_INSTANT = "floor: minimal Bun socket client, instant server";
/** The same client with the real server: the server's share of a served call. */
const FLOOR_SERVED = "floor client, serve --socket running (10 hooks)";
const PAYLOAD = join(ROOT, "test", "bridges", "fixtures", "claude", "PreToolUse.Bash.json");

/** The guard every script baseline implements: deny `rm -rf /`, else say nothing (allow). */
const DENY = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked"}}`;
const SCRIPTS = {
	"guard.cjs": `const p = JSON.parse(require("fs").readFileSync(0, "utf8")); if (String(p.tool_input?.command ?? "").includes("rm -rf /")) console.log(${JSON.stringify(DENY)});\n`,
	"guard.py": `import json, sys; p = json.load(sys.stdin); print(${JSON.stringify(DENY)}) if "rm -rf /" in str(p.get("tool_input", {}).get("command", "")) else None\n`,
	"guard.ts": `const p = await Bun.stdin.json(); if (String(p.tool_input?.command ?? "").includes("rm -rf /")) console.log(${JSON.stringify(DENY)});\n`,
};

/** The claude payload with `cwd` pointing at `project` (and a transcript that is never read). */
function payloadFor(project: string): string {
	const payload = JSON.parse(readFileSync(PAYLOAD, "utf8")) as Record<string, unknown>;
	return JSON.stringify({ ...payload, cwd: project, transcript_path: join(project, "transcript.jsonl") });
}

/** The real Python interpreter behind `python3` (a pyenv/asdf shim is a shell script that would be timed too). */
async function python(): Promise<string | undefined> {
	const found = Bun.which("python3");
	if (!found) return undefined;
	try {
		return (await run([found, "-c", "import sys; print(sys.executable)"])).trim() || found;
	} catch {
		return undefined;
	}
}

/** A home whose trust store approves the project's ten hooks (`trust approve --all`, as a user would). */
async function trustedProject(env: Record<string, string>): Promise<{ project: string; home: string }> {
	const project = tempDir("trusted-project");
	const home = tempDir("trusted-home");
	writeGuardHooks(join(project, ".xcsh", "hooks"), 10);
	await run([BIN, "trust", "approve", "--all", "--cwd", project], project, { ...env, HOME: home });
	return { project, home };
}

/** `serve --socket` for `home`, once it said it is ready; `stop` ends it. */
async function socketServer(home: string, env: Record<string, string>): Promise<{ stop(): Promise<void>; peakRss(): number | undefined }> {
	const proc = Bun.spawn([BIN, "serve", "--socket"], { env: { ...env, HOME: home }, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
	const reader = proc.stdout.getReader();
	const { value } = await reader.read();
	if (!value || !new TextDecoder().decode(value).includes('"ready"')) throw new Error("serve --socket did not start");
	return {
		// Linux: the server's high-water mark of resident memory, in bytes.
		peakRss() {
			try {
				const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1];
				return kb === undefined ? undefined : Number(kb) * 1024;
			} catch {
				return undefined;
			}
		},
		async stop() {
			proc.kill("SIGTERM");
			await proc.exited;
		},
	};
}

/** A bridge answer that is not the expected allow (empty stdout, no load errors or skips). */
function unexpected(runs: Runs): string | undefined {
	const sample = runs.sample;
	if (!sample) return undefined;
	if (sample.stdout.trim()) return `answered ${sample.stdout.trim().slice(0, 120)}`;
	const problem = sample.stderr.split("\n").find((line) => /failed|skipped|error/i.test(line));
	return problem ? `stderr: ${problem.slice(0, 160)}` : undefined;
}

/** Every measurement of the agent-call section. */
export async function benchAgentCalls(report: Report): Promise<void> {
	await report.section(
		"agent calls",
		`bridge claude, PreToolUse payload on stdin, ${report.rounds(ROUNDS)} interleaved rounds; ratios are medians of per-round ratios to trivial`,
	);
	await ensureExecutable(report);
	const trivial = await trivialExecutable();
	// The cold rows must stay cold: a bridge call would otherwise start the hook server for the next ones.
	const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", XCSH_HOOKS_SERVER: "off" };

	const project = tempDir("agent-project");
	const scripts = tempDir("agent-scripts");
	writeFiles(scripts, SCRIPTS);
	const homes = { 0: tempDir("agent-home0"), 1: tempDir("agent-home1"), 10: tempDir("agent-home10"), served: tempDir("agent-served") };
	writeGuardHooks(join(homes[1], ".xcsh", "agent", "hooks"), 1);
	writeGuardHooks(join(homes[10], ".xcsh", "agent", "hooks"), 10);
	writeGuardHooks(join(homes.served, ".xcsh", "agent", "hooks"), 10);
	const served = await socketServer(homes.served, env);
	const floor = await socketFloor(PACKAGE_VERSION);
	const trusted = await trustedProject(env);
	const payload = payloadFor(project);

	const bridge = (name: string, home: string, stdin = payload, cwd = project): Command => ({
		name,
		argv: [BIN, "bridge", "claude"],
		stdin,
		cwd,
		env: { ...env, HOME: home },
	});
	const script = (name: string, argv: string[]): Command => ({ name, argv, stdin: payload, cwd: project, env: { ...env, HOME: homes[0] } });
	const py = await python();
	const commands: Command[] = [
		script("trivial compiled executable", [trivial]),
		bridge("bridge claude, 0 hooks", homes[0]),
		bridge("bridge claude, 1 hook", homes[1]),
		bridge("bridge claude, 10 hooks", homes[10]),
		bridge("bridge claude, 10 project hooks (trusted)", trusted.home, payloadFor(trusted.project), trusted.project),
		bridge("bridge claude, 10 hooks, serve --socket running", homes.served),
		{ ...script(FLOOR_INSTANT, [floor.client]), env: { ...env, HOME: homes[0], XCSH_BENCH_SOCKET: floor.socket } },
		{
			...script(FLOOR_SERVED, [floor.client]),
			env: { ...env, HOME: homes[0], XCSH_BENCH_SOCKET: join(homes.served, ".xcsh", "agent", "bridge.sock") },
		},
		script(BARE_BUN, [process.execPath, join(scripts, "guard.ts")]),
	];
	const node = Bun.which("node");
	if (node) commands.push(script("node guard.cjs", [node, join(scripts, "guard.cjs")]));
	else await report.note("node not found: its row is skipped");
	if (py) commands.push(script("python3 guard.py", [py, join(scripts, "guard.py")]));
	else await report.note("python3 not found: its row is skipped");

	// The interpreters as the compiled programs already are: settled in the page cache (see settle in binary.ts).
	for (const interpreter of [process.execPath, node, py]) if (interpreter) settle(realpathSync(interpreter));
	try {
		await confirmServed(commands);
		await measure(report, commands);
		const rss = served.peakRss();
		if (rss !== undefined) await report.line("serve --socket itself (10 hooks, after the runs)", formatBytes(rss));
		await report.section(
			"agent calls: where a served call goes",
			"bridge claude, 10 hooks, serve --socket running; XCSH_HOOKS_PROFILE=1, medians of 20 interleaved runs",
		);
		for (const [label, value] of await profileRows(bridge("bridge", homes.served), 20)) await report.line(label, value);
	} finally {
		floor.stop();
		await served.stop();
	}
	await report.section(
		"agent calls: where the cold start goes",
		"bridge claude, 10 hooks, no server; XCSH_HOOKS_PROFILE=1, medians of 20 interleaved runs",
	);
	for (const [label, value] of await profileRows(bridge("bridge", homes[10]), 20)) await report.line(label, value);
}

/**
 * The served row must be answered by the running server and every other bridge row run on its own
 * (`XCSH_HOOKS_SERVER=off`, no server for their homes): one profiled run of each says which it was
 * (the client's `forwarded` mark). A row measuring the other path would make its budget meaningless.
 */
async function confirmServed(commands: Command[]): Promise<void> {
	for (const command of commands) {
		if (command.argv[0] !== BIN) continue;
		const run = await runOnce({ ...command, env: { ...command.env, XCSH_HOOKS_PROFILE: "1" } });
		const forwarded = run.stderr.includes('["forwarded",');
		const served = command.name.includes("serve --socket running");
		if (forwarded !== served)
			throw new Error(
				`${command.name}: ${served ? "not answered by the running serve --socket" : "answered by a hook server"}; its row would measure the other path`,
			);
	}
}

/** Times `commands` (the first is the trivial executable), checks the budgets and measures peak RSS. */
async function measure(report: Report, commands: Command[]): Promise<void> {
	const runs = await timeProcesses(commands, report.rounds(ROUNDS));
	const base = runs[0] as Runs;
	const ratios = new Map<string, number>();
	const byName = new Map<string, Runs>();
	for (const [i, command] of commands.entries()) {
		const r = runs[i] as Runs;
		const ratio = pairedRatio(r, base);
		ratios.set(command.name, ratio);
		byName.set(command.name, r);
		const times = `${formatNs(median(r.ms) * 1e6).padStart(8)} median  ${formatNs(percentile(r.ms, 90) * 1e6).padStart(8)} p90`;
		await report.line(command.name, i === 0 ? times : `${times}  → ${formatRatio(ratio)} trivial`);
		if (r.failure) await report.note(`${command.name} exited ${r.failure.code}: ${r.failure.stderr.split("\n")[0]}`);
		else if (command.argv[0] === BIN && unexpected(r)) await report.note(`${command.name}: not a clean allow — ${unexpected(r)}`);
	}
	// Per-call budgets: against the one-file `bun guard.ts` doing the same job in the same rounds (the
	// floor any Bun client pays; the trivial executable is beside it for scale), and how the ratios spread.
	const bare = byName.get(BARE_BUN);
	const perCall = (name: string, command: string, target: number) => {
		const r = byName.get(command);
		if (!r || !bare) return report.budget(name, Number.NaN, target, "not measured");
		const note = `same run; ${formatRatio(pairedRatio(r, base))} trivial, bun guard.ts ${formatRatio(pairedRatio(bare, base))} trivial`;
		report.budget(name, pairedRatio(r, bare), target, note, undefined, formatSpread(ratioSpread(r, bare)));
	};
	perCall(
		"bridge claude, 10 hooks, serve --socket running vs bun guard.ts (per agent call)",
		"bridge claude, 10 hooks, serve --socket running",
		1.2,
	);
	// Where a served call's cost lies: the floor client with an instant server, then with the real one.
	const instant = byName.get(FLOOR_INSTANT);
	const withServer = byName.get(FLOOR_SERVED);
	if (instant && withServer)
		await report.note(
			`a served call's floor: a minimal Bun client ${formatRatio(pairedRatio(instant, base))} trivial with a server that runs nothing, ${formatRatio(pairedRatio(withServer, base))} with serve --socket (its share), against bridge claude's ${formatRatio(ratios.get("bridge claude, 10 hooks, serve --socket running") ?? Number.NaN)}`,
		);
	// Without a server every call loads settings, discovery and its hooks itself (the breakdown above
	// shows where it goes): its own budget, 2.0× the same bare script.
	perCall("bridge claude, 10 hooks, no server vs bun guard.ts (cold call)", "bridge claude, 10 hooks", 2.0);

	await report.section("agent calls: memory", "peak RSS, median of 3 runs");
	for (const command of commands) {
		const samples: number[] = [];
		for (let i = 0; i < 3; i++) samples.push(await peakRss(command));
		await report.line(command.name, formatBytes(median(samples)));
	}
}
