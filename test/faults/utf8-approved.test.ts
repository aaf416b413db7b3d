/**
 * Approved project hooks run exactly as written, non-ASCII included (docs/contract.md#trust): a module
 * served from its approved bytes is decoded as the UTF-8 it is — its `café` matches a command's
 * `café`, its reason `no café — ever` and its status line `working…` reach the agent and the terminal
 * unchanged — and the same holds for its imported data, a shell hook's private copy and an agent
 * config entry's script. The hook's own test (the harness, through `xcsh-hooks test`) agrees.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, minimalEnv, runCli, useClis } from "./_cli.ts";
import { expectBlockedEmit } from "./_expect.ts";
import { bashCall, privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const REASON = "no café — ever";

const CAFE = `export default (pi) => {
	pi.on("tool_call", (event, ctx) => {
		ctx.ui.setStatus("cafe", "working…");
		if (String(event.input.command).includes("café")) return { block: true, reason: ${JSON.stringify(REASON)} };
	});
};
`;

const CAFE_TEST = `import { expect, test } from "bun:test";
import { createHookHarness } from "xcsh-hooks/testing";

test("blocks café, and says so", async () => {
	const h = await createHookHarness(\`\${import.meta.dir}/cafe.ts\`);
	expect(await h.toolCall("bash", { command: "echo café" })).toEqual({ blocked: true, reason: ${JSON.stringify(REASON)} });
	expect(h.statusLine()).toContain("working…");
	expect((await h.toolCall("bash", { command: "echo cafe" })).blocked).toBe(false);
});
`;

/** A project with `files`, its own HOME, every path in `approve` approved through the CLI. */
async function project(cli: Cli, files: Record<string, string>, approve: string[]) {
	const dir = tempDir("xcsh-faults-utf8-");
	const home = privateHome();
	writeFiles(dir, files);
	for (const path of approve) {
		const run = await runCli(cli, ["trust", "approve", join(dir, path)], { cwd: dir, home });
		if (run.code !== 0) throw new Error(`trust approve ${path} failed (${run.code}): ${run.stderr}`);
	}
	return { dir, home };
}

const claudeBash = (cwd: string, command: string) =>
	JSON.stringify({
		session_id: "utf8-session",
		transcript_path: join(cwd, "transcript.jsonl"),
		cwd,
		hook_event_name: "PreToolUse",
		tool_name: "Bash",
		tool_input: { command },
		tool_use_id: "toolu_1",
	});

function cells(cli: Cli): void {
	test.concurrent("an approved module blocks café with its reason as written, through emit and bridge claude, and passes its own test", async () => {
		const p = await project(cli, { ".xcsh/hooks/cafe.ts": CAFE, ".xcsh/hooks/cafe.test.ts": CAFE_TEST }, [
			".xcsh/hooks/cafe.ts",
			".xcsh/hooks/cafe.test.ts",
		]);
		const own = await runCli(cli, ["test"], { cwd: p.dir, home: p.home, timeoutMs: 40_000 });
		if (own.code !== 0) throw new Error(`xcsh-hooks test failed (${own.code}):\n${own.stdout}\n${own.stderr}`);

		const emitted = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("echo café") });
		expect(expectBlockedEmit(emitted, REASON).result.reason).toBe(REASON);
		const allowed = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("echo cafe") });
		expect(allowed.code).toBe(0);

		const bridged = await runCli(cli, ["bridge", "claude"], { cwd: p.dir, home: p.home, stdin: claudeBash(p.dir, "echo café") });
		expect(bridged.code).toBe(0);
		const answer = JSON.parse(bridged.stdout).hookSpecificOutput;
		expect(answer.permissionDecision).toBe("deny");
		expect(answer.permissionDecisionReason).toStartWith(REASON);
	}, 60_000);

	test.concurrent(
		"an approved module's status line reads working… at a terminal",
		async () => {
			const p = await project(cli, { ".xcsh/hooks/cafe.ts": CAFE }, [".xcsh/hooks/cafe.ts"]);
			let screen = "";
			const decoder = new TextDecoder();
			const proc = Bun.spawn(cli.argv(["emit", "tool_call", "--data", bashCall("ls")]), {
				cwd: p.dir,
				env: minimalEnv(p.home),
				timeout: 20_000,
				terminal: { cols: 80, rows: 24, data: (_term, data) => void (screen += decoder.decode(data, { stream: true })) },
			});
			const code = await proc.exited;
			proc.terminal?.close();
			expect(code).toBe(0);
			expect(screen).toContain("working…");
			expect(screen).not.toContain("workingâ");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"data an approved module imports keeps its non-ASCII text",
		async () => {
			const hook = `import policy from "./policy.json";
export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes(policy.word) ? { block: true, reason: policy.reason } : undefined));
`;
			const files = { ".xcsh/hooks/cafe.ts": hook, ".xcsh/hooks/policy.json": JSON.stringify({ word: "café", reason: REASON }) };
			const p = await project(cli, files, [".xcsh/hooks/cafe.ts"]);
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("echo café") });
			expect(expectBlockedEmit(run, REASON).result.reason).toBe(REASON);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"an approved shell hook's private copy blocks café with its reason as written",
		async () => {
			const script = `#!/bin/sh\ncase "$(cat)" in *café*) echo "${REASON}" >&2; exit 2;; esac\nexit 0\n`;
			const p = await project(cli, { ".xcsh/hooks/pre/bash.sh": script }, [".xcsh/hooks/pre/bash.sh"]);
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("echo café") });
			expect(expectBlockedEmit(run, REASON).result.reason).toBe(REASON);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"an approved agent entry's script (named café.sh) blocks café with its reason as written",
		async () => {
			const script = `#!/bin/sh\ncase "$(cat)" in *café*) echo "${REASON}" >&2; exit 2;; esac\nexit 0\n`;
			const settings = {
				hooks: {
					PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/café.sh' }] }],
				},
			};
			const files = { ".claude/hooks/café.sh": script, ".claude/settings.json": JSON.stringify(settings) };
			const p = await project(cli, files, [".claude/settings.json"]);
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("echo café") });
			expect(expectBlockedEmit(run, REASON).result.reason).toBe(REASON);
		},
		CELL_TIMEOUT_MS,
	);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
