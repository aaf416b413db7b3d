/**
 * Every answer is deliberate (issue 18, item 8): a signal a hook sends its own process, or an
 * unhandled rejection in a handler, never ends a guarded call with no answer or with an allow — for
 * `bridge claude|codex|gemini`, `emit tool_call`, `run bash` and `serve`, through both CLIs.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { constants } from "node:os";
import { join } from "node:path";
import { type Cli, type Run, runCli, serveCli, useClis, withServer } from "./_cli.ts";
import { expectBlockedEmit, expectBlockedRun } from "./_expect.ts";
import { bashCall, guardOn, marker, privateHome, tempDir, toolCallRequest, writeFiles } from "./_fixtures.ts";

const CLIS = useClis();
const TIMEOUT_MS = 60_000;

/** The signals a hook could end the bridge with before (each killed it with no answer). */
const NAMED = ["SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM"] as const;
/** Every other signal that would end a Bun process and that a listener can catch (src/process/signals.ts). */
const OTHERS = ["SIGTERM", "SIGINT", "SIGHUP", "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGTRAP", "SIGABRT", "SIGSYS", "SIGIO"] as const;

// The hook signals its own process, then would allow the call 20 s later: only the signal can decide
// in time (each process is killed after 10 s, which fails the test).
const SIGNALLER = guardOn(`process.kill(process.pid, process.env.XCSH_TEST_SIGNAL);
		return Bun.sleep(20_000);`);

/** Unhandled rejections in a handler, each of which was an allow before. */
const REJECTIONS = {
	"an unawaited Promise.reject in a synchronous handler": guardOn(`Promise.reject(new Error("nobody awaited me"));`),
	"an unawaited Promise.reject in an async handler": guardOn(`return (async () => { Promise.reject(new Error("nobody awaited me")); })();`),
	"a rejection in a setTimeout(…, 0) the handler left behind": guardOn(
		`setTimeout(() => { Promise.reject(new Error("nobody awaited me")); }, 0);`,
	),
	"a rejection in a setTimeout that fires while the handler awaits another timer": guardOn(
		`setTimeout(() => { Promise.reject(new Error("nobody awaited me")); }, 0);
		return new Promise((resolve) => setTimeout(resolve, 0));`,
	),
	"a rejection in a setImmediate the handler left behind": guardOn(
		`setImmediate(() => { Promise.reject(new Error("nobody awaited me")); });`,
	),
};

let project: string;
beforeAll(() => {
	project = tempDir("xcsh-faults-deliberate-");
	writeFiles(project, {
		"signaller.ts": SIGNALLER,
		...Object.fromEntries(Object.values(REJECTIONS).map((source, i) => [`rejection-${i}.ts`, source])),
	});
});

/** A guarded shell call in each agent's own payload, and how each reads its deny. */
const AGENTS = {
	claude: {
		payload: (cwd: string, command: string) => ({
			session_id: "s-claude",
			hook_event_name: "PreToolUse",
			tool_name: "Bash",
			tool_input: { command },
			cwd,
		}),
		reason: (answer: any) =>
			answer?.hookSpecificOutput?.permissionDecision === "deny" ? answer.hookSpecificOutput.permissionDecisionReason : undefined,
	},
	codex: {
		payload: (cwd: string, command: string) => ({
			session_id: "s-codex",
			turn_id: "t",
			hook_event_name: "PreToolUse",
			tool_name: "Bash",
			tool_input: { command },
			cwd,
		}),
		reason: (answer: any) =>
			answer?.hookSpecificOutput?.permissionDecision === "deny" ? answer.hookSpecificOutput.permissionDecisionReason : undefined,
	},
	gemini: {
		payload: (cwd: string, command: string) => ({
			session_id: "s-gemini",
			hook_event_name: "BeforeTool",
			tool_name: "run_shell_command",
			tool_input: { command },
			cwd,
		}),
		reason: (answer: any) => (answer?.decision === "deny" ? answer.reason : undefined),
	},
} as const;

type Agent = keyof typeof AGENTS;

/** `bridge <agent>` answered its deny, exit 0, one JSON line on stdout; returns the reason. */
function expectDeny(agent: Agent, run: Run): string {
	const show = `exit ${run.code}${run.timedOut ? " (killed by the test's timeout)" : ""}\n--- stdout:\n${run.stdout}\n--- stderr:\n${run.stderr}`;
	if (run.timedOut || run.code !== 0) throw new Error(`bridge ${agent} did not exit 0\n${show}`);
	const lines = run.stdout.split("\n").filter(Boolean);
	if (lines.length !== 1) throw new Error(`bridge ${agent} wrote ${lines.length} lines, not one answer\n${show}`);
	const reason = AGENTS[agent].reason(JSON.parse(lines[0] as string));
	if (typeof reason !== "string" || !reason) throw new Error(`bridge ${agent} did not deny\n${show}`);
	return reason;
}

function bridge(cli: Cli, agent: Agent, hook: string, env: Record<string, string> = {}) {
	const ran = marker(tempDir());
	return runCli(cli, ["bridge", agent, "--no-discovery", "--hook", join(project, hook), "--timeout", "30"], {
		cwd: project,
		home: privateHome(),
		stdin: JSON.stringify(AGENTS[agent].payload(project, `touch ${ran.path}`)),
		env,
	});
}

for (const cli of CLIS) {
	describe(`${cli.name}: a hook that signals its own process`, () => {
		for (const agent of Object.keys(AGENTS) as Agent[])
			test(
				`bridge ${agent} answers its deny, exit 0, for ${NAMED.join(", ")}`,
				async () => {
					for (const signal of NAMED) {
						const reason = expectDeny(agent, await bridge(cli, agent, "signaller.ts", { XCSH_TEST_SIGNAL: signal }));
						expect(reason).toContain(`interrupted by ${signal} before the hooks decided (fail closed)`);
					}
				},
				TIMEOUT_MS,
			);

		test(
			`bridge claude answers its deny for every other ending signal (${OTHERS.join(", ")})`,
			async () => {
				for (const signal of OTHERS) {
					const reason = expectDeny("claude", await bridge(cli, "claude", "signaller.ts", { XCSH_TEST_SIGNAL: signal }));
					expect(reason).toContain(`interrupted by ${signal}`);
				}
			},
			TIMEOUT_MS,
		);

		test(
			"emit tool_call is blocked (exit 2, the JSON result) instead of ending by the signal",
			async () => {
				for (const signal of NAMED) {
					const run = await runCli(cli, ["emit", "tool_call", "--no-discovery", "--hook", join(project, "signaller.ts")], {
						cwd: project,
						home: privateHome(),
						stdin: bashCall(`touch ${join(tempDir(), "MARKER")}`),
						env: { XCSH_TEST_SIGNAL: signal },
					});
					expectBlockedEmit(run, `interrupted by ${signal} before the hooks decided (fail closed)`);
				}
			},
			TIMEOUT_MS,
		);

		test(
			"run bash: the tool never starts, exit 128 + n with a line saying so",
			async () => {
				const ran = marker(tempDir());
				const run = await runCli(
					cli,
					[
						"run",
						"bash",
						"--no-discovery",
						"--hook",
						join(project, "signaller.ts"),
						"--input",
						JSON.stringify({ command: `touch ${ran.path}` }),
					],
					{ cwd: project, home: privateHome(), env: { XCSH_TEST_SIGNAL: "SIGUSR1" } },
				);
				expect(run.timedOut).toBe(false);
				expect(ran.exists()).toBe(false);
				expect(run.code).toBe(128 + constants.signals.SIGUSR1);
				expect(run.stderr).toContain("interrupted by SIGUSR1 before the hooks decided; the tool did not run");
			},
			TIMEOUT_MS,
		);

		test(
			"serve answers the call in flight and shuts down cleanly (exit 0) instead of dying",
			async () => {
				const dir = tempDir("xcsh-faults-serve-signal-");
				// Signals its server, then decides: the decision is the answer the call gets.
				writeFiles(dir, {
					"guard.ts": guardOn(`process.kill(process.pid, "SIGUSR1");
		return Bun.sleep(200).then(() => ({ block: true, reason: "decided after the signal" }));`),
				});
				const server = serveCli(cli, ["--no-discovery", "--hook", join(dir, "guard.ts")], { cwd: dir, home: privateHome() });
				await withServer(server, async () => {
					server.send(toolCallRequest(1, "touch x"));
					const line = await server.response(1, 20_000);
					expect(line.result).toEqual({ block: true, reason: "decided after the signal" });
					expect(await server.exited).toBe(0); // the signal ended it, after the answer
				});
			},
			TIMEOUT_MS,
		);
	});

	describe(`${cli.name}: an unhandled rejection in a tool_call handler blocks the call`, () => {
		const cases = Object.keys(REJECTIONS).map((name, i) => ({ name, file: `rejection-${i}.ts` }));
		for (const { name, file } of cases) {
			test(
				`${name}: emit tool_call, run bash and bridge claude|codex|gemini all block`,
				async () => {
					const hook = join(project, file);
					const emitted = await runCli(cli, ["emit", "tool_call", "--no-discovery", "--hook", hook], {
						cwd: project,
						home: privateHome(),
						stdin: bashCall(`touch ${join(tempDir(), "MARKER")}`),
					});
					expectBlockedEmit(emitted, /uncaught error during the call \(fail closed\): nobody awaited me/);

					const ran = marker(tempDir());
					const run = await runCli(
						cli,
						["run", "bash", "--no-discovery", "--hook", hook, "--input", JSON.stringify({ command: `touch ${ran.path}` })],
						{ cwd: project, home: privateHome() },
					);
					expectBlockedRun(run, /uncaught error during the call \(fail closed\): nobody awaited me/, ran.exists);

					for (const agent of Object.keys(AGENTS) as Agent[])
						expect(expectDeny(agent, await bridge(cli, agent, file))).toContain("nobody awaited me");
				},
				TIMEOUT_MS,
			);
		}
	});
}
