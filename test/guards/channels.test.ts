/**
 * Every command the issue lists gets its verdict through the three ways a user meets the guard: the
 * testing harness (in-process), `xcsh-hooks emit tool_call` and `xcsh-hooks bridge claude`, both run
 * by the compiled executable from a folder with no node_modules, so `xcsh-hooks/guards` and the
 * parser's WASM are the copies inside it.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createHookHarness } from "../../src/testing/index.ts";
import { executablePath, runArgv, useClis } from "../faults/_cli.ts";
import { privateHome, tempDir, writeFiles } from "../faults/_fixtures.ts";
import { ISSUE_ALLOW, ISSUE_BLOCK } from "./corpus/issue.ts";

useClis();
const CASES = [...ISSUE_BLOCK, ...ISSUE_ALLOW];
const HOOK = `import { createShellGuard } from "xcsh-hooks/guards";
const guard = createShellGuard();
export default function (pi) {
	pi.on("tool_call", guard.handler);
}
`;

function workspace(): { dir: string; hook: string; home: string } {
	const dir = tempDir("xcsh-guard-channels-");
	writeFiles(dir, { "guard.mjs": HOOK });
	// No server: each bridge call is the cold path, one process per call.
	return { dir, hook: join(dir, "guard.mjs"), home: privateHome({ server: false }) };
}

describe("the issue's commands, every way in", () => {
	test("through the testing harness", async () => {
		// In-process, the hook resolves the package as a project that ran `bun add xcsh-hooks` would.
		const { dir, hook } = workspace();
		mkdirSync(join(dir, "node_modules"));
		symlinkSync(join(import.meta.dir, "..", ".."), join(dir, "node_modules", "xcsh-hooks"));
		const h = await createHookHarness(hook);
		const wrong: string[] = [];
		for (const c of CASES) {
			const call = await h.toolCall("bash", { command: c.command });
			if (call.blocked !== c.block) wrong.push(c.command);
			if (c.block && !call.reason?.includes(`[${c.rule}]`)) wrong.push(`${c.command}: ${call.reason}`);
		}
		expect(wrong).toEqual([]);
	}, 60_000);

	test("through `emit tool_call` (compiled executable)", async () => {
		const { dir, hook, home } = workspace();
		const wrong: string[] = [];
		for (const c of CASES) {
			const data = JSON.stringify({ toolName: "bash", input: { command: c.command } });
			const run = await runArgv([executablePath(), "emit", "tool_call", "--no-discovery", "--hook", hook, "--data", data], {
				cwd: dir,
				home,
				timeoutMs: 20_000,
			});
			const result = JSON.parse(run.stdout || "{}").result;
			if (run.code !== (c.block ? 2 : 0) || Boolean(result?.block) !== c.block)
				wrong.push(`${c.command}: exit ${run.code} ${run.stderr.trim()}`);
			else if (c.block && !String(result.reason).includes(`[${c.rule}]`)) wrong.push(`${c.command}: ${result.reason}`);
		}
		expect(wrong).toEqual([]);
	}, 120_000);

	test("through `bridge claude` (compiled executable)", async () => {
		const { dir, hook, home } = workspace();
		const wrong: string[] = [];
		for (const c of CASES) {
			const payload = JSON.stringify({
				session_id: "s-guard",
				hook_event_name: "PreToolUse",
				tool_name: "Bash",
				tool_input: { command: c.command },
				cwd: dir,
			});
			const run = await runArgv([executablePath(), "bridge", "claude", "--no-discovery", "--hook", hook], {
				cwd: dir,
				home,
				stdin: payload,
				timeoutMs: 20_000,
			});
			const answer = run.stdout.trim() ? JSON.parse(run.stdout) : {};
			const denied = answer.hookSpecificOutput?.permissionDecision === "deny";
			if (run.code !== 0 || denied !== c.block)
				wrong.push(`${c.command}: exit ${run.code}, answer ${run.stdout.trim()} ${run.stderr.trim()}`);
			else if (c.block && !String(answer.hookSpecificOutput.permissionDecisionReason).includes(`[${c.rule}]`))
				wrong.push(`${c.command}: ${run.stdout}`);
		}
		expect(wrong).toEqual([]);
	}, 120_000);
});
