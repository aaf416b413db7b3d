/**
 * The agent's environment cannot stop or subvert the guard. A project can add variables to it (Claude
 * Code's `env` in `.claude/settings.json`, Gemini CLI's `.env`), and Bun acts on some before any of our
 * code runs: `BUN_JSC_*` options and `MIMALLOC_*` crash the executable, `BUN_BE_BUN` makes it plain Bun,
 * `BUN_OPTIONS=--preload=…` runs the project's file first. Each cell installs the compiled executable
 * for an agent (user, project or managed entry), then runs the exact entry `install` wrote, as the agent
 * runs it (a shell where the agent uses one, the argv where it does not), with one hostile variable and
 * a PreToolUse `rm -rf build` that a user hook denies: the answer is the deny (or the agent's blocking
 * exit code) and the project's preload never ran.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { shellWords } from "../../src/install/own-entry.ts";
import { CELL_TIMEOUT_MS, executablePath, pathWith, type Run, runArgv, useClis } from "./_cli.ts";
import { privateHome, tempDir, writeFiles } from "./_fixtures.ts";

useClis();

const FIXTURES = join(import.meta.dir, "..", "bridges", "fixtures");
const GUARD = `export default (pi) => pi.on("tool_call", (e) => (String(e.input.command ?? "").includes("rm -rf") ? { block: true, reason: "NO-RM-RF" } : undefined));\n`;

/** One variable each (the project's file is `x.ts`, which leaves a marker when it runs). */
const HOSTILE: Record<string, string> = {
	BUN_JSC_maxPerThreadStackUsage: "20000",
	BUN_JSC_jitMemoryReservationSize: "1",
	BUN_BE_BUN: "1",
	BUN_OPTIONS: "--preload=./x.ts",
	MIMALLOC_RESERVE_OS_MEMORY: "100T",
};

/**
 * Environments aimed at the entry's own shell: an `IFS` that would keep `export -p` from splitting at
 * spaces, and a value holding a word shaped like a variable no shell can unset (a fatal error for
 * dash's plain `unset`), each beside a variable that must still go.
 */
const AT_THE_SHELL: Array<Record<string, string>> = [
	{ IFS: "x", BUN_OPTIONS: "--preload=./x.ts" },
	{ NOTES: "a BUN_a-b=1 c", BUN_BE_BUN: "1" },
];

/** How an agent runs an entry's command line. */
type Runner = (command: string) => string[];
const SH: Runner = (command) => ["/bin/sh", "-c", command];
const BASH: Runner = (command) => ["bash", "-c", command];
/** Codex: `$SHELL -lc` (here sh and bash). */
const LOGIN_SH: Runner = (command) => ["/bin/sh", "-lc", command];
const LOGIN_BASH: Runner = (command) => ["bash", "-lc", command];
/** A user whose `$SHELL` is fish or csh (Codex runs `$SHELL -lc`; csh takes no `-l` beside `-c`), where installed. */
const OTHER_SHELLS: Record<string, Runner> = Object.fromEntries(
	[
		["$SHELL=fish -lc", "fish", ["-lc"]],
		["$SHELL=zsh -lc", "zsh", ["-lc"]],
		["$SHELL=csh -c", "csh", ["-c"]],
	].flatMap(([name, shell, flags]) => {
		const path = Bun.which(shell as string);
		return path ? [[name, (command: string) => [path, ...(flags as string[]), command]]] : [];
	}),
);
/** An agent that splits the line into an argv and runs no shell. */
const ARGV: Runner = (command) => shellWords(command) ?? ["(not one plain command)"];

interface AgentCase {
	agent: string;
	/** The PreToolUse fixture (with `rm -rf build`). */
	payload: string;
	/** The pre-tool event's key in the config. */
	event: string;
	runners: Record<string, Runner>;
}

const CASES: AgentCase[] = [
	{ agent: "claude", payload: "claude/PreToolUse.Bash.json", event: "PreToolUse", runners: { "sh -c": SH } },
	{
		agent: "codex",
		payload: "codex/PreToolUse.json",
		event: "PreToolUse",
		runners: { "$SHELL=sh -lc": LOGIN_SH, "$SHELL=bash -lc": LOGIN_BASH, argv: ARGV, ...OTHER_SHELLS },
	},
	{ agent: "gemini", payload: "gemini/BeforeTool.json", event: "BeforeTool", runners: { "sh -c": SH } },
	{ agent: "cursor", payload: "cursor/preToolUse.json", event: "preToolUse", runners: { "sh -c": SH } },
	{ agent: "copilot", payload: "copilot/PreToolUse.json", event: "PreToolUse", runners: { "bash -c": BASH } },
	{ agent: "qwen", payload: "qwen/PreToolUse.json", event: "PreToolUse", runners: { "sh -c": SH } },
	{ agent: "droid", payload: "droid/PreToolUse.json", event: "PreToolUse", runners: { "sh -c": SH } },
	// Auggie runs a command holding `;` or `$` with `bash -c` (0.36.0).
	{ agent: "auggie", payload: "auggie/PreToolUse.json", event: "PreToolUse", runners: { "bash -c": BASH } },
];

/** A project with the preload file, a home whose user hook denies `rm -rf`. */
function setup() {
	const proj = tempDir("xcsh-faults-env-proj-");
	const home = privateHome();
	writeFiles(home, { ".xcsh/agent/hooks/guard.ts": GUARD });
	const marker = join(proj, "PRELOADED");
	writeFiles(proj, { "x.ts": `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran\\n");\n` });
	return { proj, home, marker };
}

const payloadFor = (fixture: string, proj: string) => readFileSync(join(FIXTURES, fixture), "utf8").replaceAll("/home/user/proj", proj);

/** The pre-tool entry's command line in a JSON config `install` wrote. */
function entryOf(file: string, event: string): string {
	const list = JSON.parse(readFileSync(file, "utf8")).hooks[event] as Array<Record<string, any>>;
	const handler = list.flatMap((item) => (Array.isArray(item.hooks) ? item.hooks : [item]))[0];
	const command = handler?.command ?? handler?.bash;
	if (typeof command !== "string") throw new Error(`${file}: no ${event} entry`);
	return command;
}

// The executable on PATH too: a project's entries name `xcsh-hooks`, found there.
let onPath: string | undefined;
const path = () => (onPath ??= pathWith({ name: "executable", argv: (args) => [executablePath(), ...args] }));
const env = (home: string, extra: Record<string, string> = {}) => ({ XCSH_HOOKS_SERVER: "off", HOME: home, PATH: path(), ...extra });

/** Blocked: the same deny the clean environment gets, or the blocking exit code with a reason (`anyBlock`: any `block: true` answer, pi's). */
function expectBlocked(run: Run, clean: Run, what: string, anyBlock = false): void {
	const blocked = anyBlock
		? run.code === 0 && /"block":true/.test(run.stdout)
		: (run.code === 0 && run.stdout === clean.stdout) || (run.code === 2 && run.stderr.trim() !== "");
	if (!blocked)
		throw new Error(`${what}: not blocked (exit ${run.code}); stdout: ${run.stdout.slice(0, 300)}; stderr: ${run.stderr.slice(0, 300)}`);
}

/** Runs `argv` clean and with each hostile variable; every run is blocked and the preload never ran. */
async function expectImmune(
	argv: string[],
	opts: { proj: string; home: string; marker: string; stdin: string; anyBlock?: boolean },
	deny: RegExp,
	what: string,
) {
	const clean = await runArgv(argv, { cwd: opts.proj, home: opts.home, stdin: opts.stdin, env: env(opts.home), timeoutMs: 30_000 });
	expect(`${clean.code} ${clean.stdout}`).toMatch(new RegExp(`^0 .*${deny.source}`, "s"));
	const environments = [...Object.entries(HOSTILE).map(([name, value]) => ({ [name]: value })), ...AT_THE_SHELL];
	for (const hostile of environments) {
		const run = await runArgv(argv, {
			cwd: opts.proj,
			home: opts.home,
			stdin: opts.stdin,
			env: env(opts.home, hostile),
			timeoutMs: 30_000,
		});
		expectBlocked(run, clean, `${what} with ${JSON.stringify(hostile)}`, opts.anyBlock);
		expect(existsSync(opts.marker)).toBe(false);
	}
}

async function install(args: string[], proj: string, home: string): Promise<string> {
	const run = await runArgv([executablePath(), "install", ...args, "--json"], { cwd: proj, home, env: env(home) });
	if (run.code !== 0) throw new Error(`install ${args.join(" ")} failed: ${run.stderr}`);
	return JSON.parse(run.stdout).file as string;
}

describe("a hostile agent environment: the installed entry still blocks rm -rf, and no project code runs", () => {
	for (const c of CASES)
		for (const scope of c.agent === "claude" || c.agent === "codex" || c.agent === "gemini" ? ["user", "project"] : ["user"])
			test.concurrent(
				`${c.agent} (${scope} entry), run as ${Object.keys(c.runners).join(", ")}`,
				async () => {
					const s = setup();
					// Codex runs its hooks through a login shell ($SHELL -lc), whose PATH the login profile sets (here root's
					// /etc/profile, without the test's folder; a user's profile puts xcsh-hooks there): its project entry names
					// the executable's path.
					const where = scope === "user" ? ["--user"] : c.agent === "codex" ? ["--command", executablePath()] : [];
					const file = await install([c.agent, ...where], s.proj, s.home);
					const command = entryOf(file, c.event);
					for (const [how, runner] of Object.entries(c.runners))
						await expectImmune(
							runner(command),
							{ ...s, stdin: payloadFor(c.payload, s.proj) },
							/deny|NO-RM-RF/,
							`${c.agent} ${scope} (${how})`,
						);
				},
				CELL_TIMEOUT_MS * 2,
			);

	test.concurrent(
		"cline (user): the PreToolUse executable, run by Cline as a file",
		async () => {
			const s = setup();
			const dir = await install(["cline", "--user"], s.proj, s.home);
			await expectImmune([join(dir, "PreToolUse")], { ...s, stdin: payloadFor("cline/PreToolUse.json", s.proj) }, /NO-RM-RF/, "cline");
		},
		CELL_TIMEOUT_MS * 2,
	);

	test.concurrent(
		"pi (user): the extension, loaded by Node as pi loads it, blocks the call",
		async () => {
			const s = setup();
			const dir = await install(["pi", "--user"], s.proj, s.home);
			const event = { type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "rm -rf build" } };
			const argv = ["node", join(import.meta.dir, "_pi-call.mjs"), join(dir, "xcsh-hooks.js"), JSON.stringify(event)];
			// pi's extension blocks a call whose bridge failed by itself: what it must not do is run the project's preload.
			await expectImmune(argv, { ...s, stdin: "", anyBlock: true }, /"block":true.*NO-RM-RF/, "pi");
		},
		CELL_TIMEOUT_MS * 2,
	);
});

const q = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * The managed entries, in a private mount namespace whose /etc is an overlay (nothing reaches the real
 * /etc): the executable at a system path, `install <agent> --managed`, then the entry the managed
 * config holds, read out with the executable itself (`BUN_BE_BUN=1` makes it Bun), run with each variable.
 */
describe("a hostile agent environment: managed entries", () => {
	const MANAGED: Array<{ agent: string; file: string; payload: string; read: string }> = [
		{
			agent: "claude",
			file: "/etc/claude-code/managed-settings.json",
			payload: "claude/PreToolUse.Bash.json",
			read: "JSON.parse(require('fs').readFileSync(F,'utf8')).hooks.PreToolUse[0].hooks[0].command",
		},
		{
			agent: "codex",
			file: "/etc/codex/requirements.toml",
			payload: "codex/PreToolUse.json",
			read: "Bun.TOML.parse(require('fs').readFileSync(F,'utf8')).hooks.PreToolUse[0].hooks[0].command",
		},
		{
			agent: "gemini",
			file: "/etc/gemini-cli/settings.json",
			payload: "gemini/BeforeTool.json",
			read: "JSON.parse(require('fs').readFileSync(F,'utf8')).hooks.BeforeTool[0].hooks[0].command",
		},
	];
	for (const m of MANAGED)
		test.concurrent(
			`${m.agent} (managed entry), run as sh -c`,
			async () => {
				const s = setup();
				const out = join(s.proj, "out");
				mkdirSync(out);
				const over = tempDir("xcsh-faults-env-etc-");
				mkdirSync(join(over, "up"));
				mkdirSync(join(over, "work"));
				writeFiles(s.proj, { "payload.json": payloadFor(m.payload, s.proj) });
				const exe = "/etc/xcsh/bin/xcsh-hooks";
				const runs = [["clean", ""], ...Object.entries(HOSTILE).map(([name, value]) => [name, `${name}=${q(value)}`])].map(
					([name, assignment]) =>
						`env ${assignment} /bin/sh -c "$CMD" < payload.json > ${q(join(out, `${name}.out`))} 2> ${q(join(out, `${name}.err`))}; echo $? > ${q(join(out, `${name}.rc`))}`,
				);
				const script = [
					"set -e",
					`mount -t overlay overlay -o lowerdir=/etc,upperdir=${q(join(over, "up"))},workdir=${q(join(over, "work"))} /etc`,
					"mkdir -p /etc/xcsh/bin && chmod 755 /etc/xcsh /etc/xcsh/bin",
					`cp ${q(executablePath())} ${exe} && chmod 755 ${exe}`,
					`${exe} install ${m.agent} --managed --command ${exe} > ${q(join(out, "install.txt"))} 2>&1`,
					`CMD=$(BUN_BE_BUN=1 ${exe} -e ${q(`const F = ${JSON.stringify(m.file)}; console.log(${m.read})`)})`,
					`printf %s "$CMD" > ${q(join(out, "command.txt"))}`,
					"set +e",
					...runs,
				].join("\n");
				const ns = await runArgv(["unshare", "--mount", "--map-root-user", "sh", "-c", script], {
					cwd: s.proj,
					home: s.home,
					env: env(s.home),
					timeoutMs: 90_000,
				});
				expect(ns.stderr).toBe("");
				expect(readFileSync(join(out, "command.txt"), "utf8")).toContain(`${exe} bridge ${m.agent} --managed --installed-by=xcsh-hooks`);
				const read = (name: string): Run => ({
					code: Number(readFileSync(join(out, `${name}.rc`), "utf8")),
					stdout: readFileSync(join(out, `${name}.out`), "utf8"),
					stderr: readFileSync(join(out, `${name}.err`), "utf8"),
					timedOut: false,
					ms: 0,
				});
				const clean = read("clean");
				expect(`${clean.code} ${clean.stdout}`).toMatch(/^0 .*NO-RM-RF/s);
				for (const name of Object.keys(HOSTILE)) expectBlocked(read(name), clean, `${m.agent} managed with ${name}`);
				expect(existsSync(s.marker)).toBe(false);
			},
			CELL_TIMEOUT_MS * 2,
		);
});

/**
 * Any way the bridge can end without an answer (a hook that kills its own process, an executable that
 * is gone) is the agents' blocking exit code on the pre-tool event (2 with a reason: Claude Code,
 * Codex, Gemini CLI, Qwen, Droid and Cursor block on it, Copilot on any non-zero exit), where a crash
 * alone would let the call run. On the other events it stays what it was (exit 2 on Stop would make
 * the agent go on working).
 */
describe("a bridge that ends without an answer", () => {
	const KILLER = `export default (pi) => {
	pi.on("tool_call", (e) => { if (String(e.input.command ?? "").includes("rm -rf")) process.kill(process.pid, "SIGKILL"); });
	pi.on("agent_end", () => { process.kill(process.pid, "SIGKILL"); });
};
`;
	const stop = (proj: string) => payloadFor("codex/Stop.json", proj);

	for (const c of CASES.filter((c) => ["claude", "codex", "gemini"].includes(c.agent)))
		test.concurrent(
			`${c.agent}: a hook that SIGKILLs the bridge on rm -rf: the pre-tool entry exits 2 with the reason`,
			async () => {
				const { proj, home } = setup();
				writeFiles(home, { ".xcsh/agent/hooks/guard.ts": KILLER });
				const file = await install([c.agent, "--user"], proj, home);
				const [how, runner] = Object.entries(c.runners)[0] as [string, Runner];
				const run = await runArgv(runner(entryOf(file, c.event)), { cwd: proj, home, stdin: payloadFor(c.payload, proj), env: env(home) });
				expect({ how, code: run.code, stdout: run.stdout }).toEqual({ how, code: 2, stdout: "" });
				expect(run.stderr).toContain("ended without an answer (exit status 137); the tool call is blocked (fail closed)");
				if (c.agent !== "codex") return;
				// Stop: no blocking code (Codex would take exit 2 as "keep working"); the agent sees the kill itself.
				const ended = await runArgv(runner(entryOf(file, "Stop")), { cwd: proj, home, stdin: stop(proj), env: env(home) });
				expect(ended.code).toBe(137);
			},
			CELL_TIMEOUT_MS,
		);

	test.concurrent(
		"an executable that is gone: every agent's pre-tool entry blocks (Cline's answers cancel)",
		async () => {
			const { proj, home } = setup();
			const gone = join(proj, "moved-away", "xcsh-hooks");
			for (const c of CASES) {
				const run0 = await runArgv([executablePath(), "install", c.agent, "--user", "--command", gone, "--json"], {
					cwd: proj,
					home,
					env: env(home),
				});
				const file = JSON.parse(run0.stdout).file as string;
				const [, runner] = Object.entries(c.runners)[0] as [string, Runner];
				const run = await runArgv(runner(entryOf(file, c.event)), { cwd: proj, home, stdin: payloadFor(c.payload, proj), env: env(home) });
				expect({ agent: c.agent, code: run.code }).toEqual({ agent: c.agent, code: 2 });
				expect(run.stderr).toContain(`${gone} ended without an answer (exit status 127)`);
			}
			const run0 = await runArgv([executablePath(), "install", "cline", "--user", "--command", gone, "--json"], {
				cwd: proj,
				home,
				env: env(home),
			});
			const cline = await runArgv([join(JSON.parse(run0.stdout).file, "PreToolUse")], {
				cwd: proj,
				home,
				stdin: payloadFor("cline/PreToolUse.json", proj),
				env: env(home),
			});
			expect(JSON.parse(cline.stdout)).toEqual({
				cancel: true,
				errorMessage: "xcsh-hooks: the bridge ended without an answer (exit status 127); the run is cancelled (fail closed)",
			});
		},
		CELL_TIMEOUT_MS * 2,
	);
});
