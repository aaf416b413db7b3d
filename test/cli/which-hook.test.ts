/**
 * A deny from `bridge` names the hook that blocked, not every hook loaded, and the bridge's entry in
 * the decision log carries `hook` as the CLI's own entries do — through both CLIs.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";
import { fixture } from "../bridges/_bridge.ts";

const QUIET = `export default (pi) => pi.on("tool_call", () => undefined);\n`;
const REWRITER = `export default (pi) => pi.on("tool_call", (e) => e.input.command === "echo hi" ? { input: { ...e.input, command: "echo HI" } } : undefined);\n`;
const BLOCKER = `export default (pi) => pi.on("tool_call", (e) => String(e.input.command).includes("rm -rf") ? { block: true, reason: "NO RM" } : undefined);\n`;

function setup() {
	const root = tempDir("xcsh-which-hook-");
	const home = join(root, "home");
	const project = join(root, "project");
	mkdirSync(home);
	mkdirSync(project);
	writeFileSync(join(project, "first-quiet.ts"), QUIET);
	writeFileSync(join(project, "blocker.ts"), BLOCKER);
	writeFileSync(join(project, "last-quiet.ts"), QUIET);
	writeFileSync(join(project, "rewriter.ts"), REWRITER);
	const hooks = ["first-quiet.ts", "blocker.ts", "rewriter.ts", "last-quiet.ts"].flatMap((h) => ["--hook", join(project, h)]);
	return { home, project, hooks };
}

const logOf = (home: string) =>
	readFileSync(join(home, ".xcsh", "agent", "decisions.jsonl"), "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as Record<string, unknown>);

for (const cli of useClis()) {
	describe(cli.name, () => {
		test("the deny names only the hook that blocked; the log entry carries its path", async () => {
			const s = setup();
			const payload = fixture("claude", "PreToolUse.Bash.json", s.project);
			const run = await runCli(cli, ["bridge", "claude", "--no-discovery", ...s.hooks], {
				cwd: s.project,
				home: s.home,
				stdin: JSON.stringify(payload),
				timeoutMs: 30_000,
			});
			expect(run.code).toBe(0);
			const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
			expect(reason).toBe("NO RM [xcsh-hooks: blocker.ts]");
			const [entry] = logOf(s.home);
			expect(entry).toMatchObject({ agent: "claude", decision: "deny", hook: join(s.project, "blocker.ts") });
		}, 60_000);

		test("a rewritten call's bridge entry names the rewriting hook, as emit's entry does", async () => {
			const s = setup();
			const payload = fixture("claude", "PreToolUse.Bash.json", s.project);
			(payload.tool_input as Record<string, unknown>).command = "echo hi";
			const run = await runCli(cli, ["bridge", "claude", "--no-discovery", ...s.hooks], {
				cwd: s.project,
				home: s.home,
				stdin: JSON.stringify(payload),
				timeoutMs: 30_000,
			});
			expect(run.code).toBe(0);
			const emitted = await runCli(
				cli,
				["emit", "tool_call", "--no-discovery", ...s.hooks, "--data", '{"toolName":"bash","input":{"command":"echo hi"}}'],
				{
					cwd: s.project,
					home: s.home,
					timeoutMs: 30_000,
				},
			);
			expect(emitted.code).toBe(0);
			const [bridged, cli_] = logOf(s.home);
			expect(bridged).toMatchObject({ agent: "claude", decision: "rewrite", hook: join(s.project, "rewriter.ts") });
			expect(cli_).toMatchObject({ agent: "cli", decision: "rewrite", hook: join(s.project, "rewriter.ts") });
		}, 60_000);
	});
}
