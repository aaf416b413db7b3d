/** The bridge matrix through `bun src/cli.ts` (the package's `bin`), plus agent-specific forms. */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { answerOf, CLI, fixture, spawnRun, workspace } from "./_bridge.ts";
import { bridgeMatrix } from "./_suite.ts";

bridgeMatrix(() => [process.execPath, CLI]);

describe("agent-specific answers", () => {
	let ws: ReturnType<typeof workspace>;
	beforeAll(() => {
		ws = workspace();
		writeFileSync(
			ws.hook("notify.ts"),
			`export default (pi) => pi.on("tool_call", (event, ctx) => { ctx.ui.notify("checked " + event.toolName, "warning"); });\n`,
		);
	});
	const bridge = (agent: string, payload: unknown, hooks: string[], extra: string[] = []) =>
		spawnRun([process.execPath, CLI, "bridge", agent, "--no-discovery", ...hooks.flatMap((h) => ["--hook", ws.hook(h)]), ...extra], {
			stdin: JSON.stringify(payload),
			home: ws.home,
			cwd: ws.project,
		});

	test("Claude Read: the replaced content goes back in file.content, the rest of the output kept", async () => {
		const answer = answerOf(await bridge("claude", fixture("claude", "PostToolUse.Read.json", ws.project), ["policy.ts"]));
		expect(answer).toEqual({
			hookSpecificOutput: {
				hookEventName: "PostToolUse",
				updatedToolOutput: {
					type: "text",
					file: { filePath: "/home/user/proj/.env", content: "REPLACED-BY-HOOK", numLines: 3, startLine: 1, totalLines: 3 },
				},
			},
		});
	}, 60_000);

	test("Claude: a hook's notification is also the user-visible systemMessage", async () => {
		const run = await bridge("claude", fixture("claude", "PreToolUse.Read.json", ws.project), ["notify.ts"]);
		expect(answerOf(run)).toEqual({ systemMessage: "[warning] checked read" });
		expect(run.stderr).toContain("[warning] checked read");
	}, 60_000);

	test("Codex: a notification stays on stderr (its strict schema takes no extra key)", async () => {
		const run = await bridge("codex", fixture("codex", "PreToolUse.json", ws.project), ["notify.ts"]);
		expect(answerOf(run)).toBeUndefined();
		expect(run.stderr).toContain("[warning] checked bash");
	}, 60_000);

	test("Cursor: a non-MCP output cannot be replaced; the replacement comes as context, with a warning", async () => {
		const run = await bridge("cursor", fixture("cursor", "postToolUse.json", ws.project), ["policy.ts"]);
		expect(answerOf(run)).toEqual({ additional_context: "A hook replaced the output of Shell with:\nREPLACED-BY-HOOK" });
		expect(run.stderr).toContain("Cursor replaces only MCP tool outputs");
	}, 60_000);

	test("Cursor beforeShellExecution: deny in Cursor's terms", async () => {
		expect(answerOf(await bridge("cursor", fixture("cursor", "beforeShellExecution.json", ws.project), ["policy.ts"]))).toEqual({
			permission: "deny",
			user_message: "POLICY: rm -rf is not allowed [xcsh-hooks: policy.ts]",
			agent_message: "POLICY: rm -rf is not allowed [xcsh-hooks: policy.ts]",
		});
	}, 60_000);

	test("Copilot camelCase without --event: the payload's fields name the event", async () => {
		const answer = answerOf(await bridge("copilot", fixture("copilot", "preToolUse.json", ws.project), ["policy.ts"]));
		expect(answer).toEqual({
			permissionDecision: "deny",
			permissionDecisionReason: "POLICY: rm -rf is not allowed [xcsh-hooks: policy.ts]",
		});
	}, 60_000);

	test("Gemini tail-call AfterTool and Copilot permissionRequest are handled (replace / no opinion)", async () => {
		expect(answerOf(await bridge("gemini", fixture("gemini", "AfterTool.tail-call.json", ws.project), ["policy.ts"]))).toEqual({
			decision: "deny",
			reason: "REPLACED-BY-HOOK",
		});
		expect(answerOf(await bridge("copilot", fixture("copilot", "permissionRequest.json", ws.project), ["policy.ts"]))).toBeUndefined();
	}, 60_000);

	test("--allow-load-errors lets a call the other hooks allow run", async () => {
		const payload = fixture("claude", "PreToolUse.Bash.2.json", ws.project);
		const run = await bridge("claude", payload, ["policy.ts", "broken.ts"], ["--allow-load-errors"]);
		expect(answerOf(run)).toBeUndefined();
		expect(run.stderr).toContain("broken.ts");
	}, 60_000);
});
