/** Auggie specifics the shared matrix does not cover (payloads captured from Auggie 0.36.0). */
import { beforeAll, describe, expect, test } from "bun:test";
import { askAsDeny, auggieBridge } from "../../src/agents/auggie/bridge.ts";
import { toAgentInput, toBuiltin } from "../../src/agents/_shared/tools.ts";
import { mapPayload } from "../../src/agent-call/map.ts";
import { answerOf, CLI, fixture, spawnRun, workspace } from "./_bridge.ts";

const mapped = (file: string, change: (payload: Record<string, unknown>) => void = () => {}) => {
	const payload = fixture("auggie", file);
	change(payload);
	return mapPayload(auggieBridge, auggieBridge.eventName(payload, undefined) as string, payload);
};

describe("Auggie payloads", () => {
	test("launch-process is bash {command}, view is read {path}; the conversation is the session", () => {
		expect(mapped("PreToolUse.json")).toMatchObject({
			kind: "event",
			event: { type: "tool_call", toolName: "bash", agentToolName: "launch-process", input: { command: "rm -rf build" } },
		});
		expect(mapped("PreToolUse.view.json")).toMatchObject({
			event: { type: "tool_call", toolName: "read", input: { path: "/home/user/proj/deploy.conf" } },
		});
		expect(auggieBridge.sessionId(fixture("auggie", "PreToolUse.json"))).toBe("f506db79-39cf-4500-9bf4-01e7c5f48b9d");
	});

	test("PostToolUse: tool_output is the result's text; a tool_error makes it a failed call", () => {
		const ok = mapped("PostToolUse.view.json");
		expect(ok).toMatchObject({ event: { type: "tool_result", toolName: "read", isError: false } });
		const text = ok.kind === "event" && ok.event.type === "tool_result" ? ok.event.content : [];
		expect(JSON.stringify(text)).toContain("API_KEY=sk-SECRET-123");
		const failed = mapped("PostToolUse.json", (p) => {
			p.tool_error = "Command failed: exit 1";
		});
		expect(failed).toMatchObject({
			event: { type: "tool_result", isError: true, content: [{ type: "text", text: "Command failed: exit 1" }] },
		});
	});

	test("PromptSubmit is before_agent_start with the user's prompt; Auggie's `[undefined]` is no prompt", () => {
		expect(mapped("PromptSubmit.json")).toMatchObject({
			event: { type: "before_agent_start", prompt: "clean the build folder, echo, then read deploy.conf" },
		});
		expect(mapped("PromptSubmit.json", (p) => (p.user_prompt = "[undefined]"))).toMatchObject({
			event: { type: "before_agent_start", prompt: "" },
		});
		// Claude's name for the event is not Auggie's: no counterpart, no opinion.
		expect(mapped("PromptSubmit.json", (p) => (p.hook_event_name = "UserPromptSubmit")).kind).toBe("none");
	});

	test("the project is AUGMENT_PROJECT_DIR, then the first workspace root", () => {
		const payload = fixture("auggie", "PreToolUse.json");
		expect(auggieBridge.projectDirs(payload, { AUGMENT_PROJECT_DIR: "/p" })).toEqual(["/p", "/home/user/proj"]);
		expect(auggieBridge.projectDirs({ ...payload, workspace_roots: [] }, {})).toEqual([undefined, undefined]);
	});

	test("save-file is write {path, content}; a rewrite goes back as file_content", () => {
		const input = { path: "notes.txt", file_content: "a", add_last_line_newline: true };
		const tool = toBuiltin(auggieBridge.tools, "save-file", input);
		expect(tool).toMatchObject({ toolName: "write", input: { path: "notes.txt", content: "a" } });
		expect(toAgentInput(tool, input, { path: "notes.txt", content: "b" })).toEqual({
			add_last_line_newline: true,
			path: "notes.txt",
			file_content: "b",
		});
	});

	test("a hook's ask becomes a deny (Auggie runs an asked call in --print)", () => {
		expect(askAsDeny("deploy to prod?")).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: expect.stringContaining("deploy to prod?"),
			},
		});
	});
});

describe("bridge auggie, end to end", () => {
	let ws: ReturnType<typeof workspace>;
	beforeAll(() => {
		ws = workspace();
	});
	const bridge = (payload: unknown, hooks: string[], env: Record<string, string> = {}) =>
		spawnRun([process.execPath, CLI, "bridge", "auggie", "--no-discovery", ...hooks.flatMap((h) => ["--hook", ws.hook(h)])], {
			stdin: JSON.stringify(payload, null, 2), // Auggie writes the payload pretty-printed
			home: ws.home,
			cwd: ws.project,
			env,
		});

	test("a rewrite sends the whole input back: wait, cwd and max_wait_seconds kept", async () => {
		const payload = fixture("auggie", "PreToolUse.json", ws.project);
		(payload.tool_input as Record<string, unknown>).command = "echo REWRITE-ME";
		expect(answerOf(await bridge(payload, ["policy.ts"]))).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "allow",
				updatedInput: { command: "echo REWRITTEN-BY-HOOK", wait: true, cwd: "/home/user/proj", max_wait_seconds: 30 },
			},
		});
	}, 60_000);

	test("a prompt hook's context is dropped with a warning: Auggie would not give it to the model", async () => {
		const run = await bridge(fixture("auggie", "PromptSubmit.json", ws.project), ["policy.ts"]);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain("Auggie does not give a prompt hook's context to the model");
	}, 60_000);

	test("a redaction is appended as context, the warning says the original stays visible", async () => {
		const run = await bridge(fixture("auggie", "PostToolUse.view.json", ws.project), ["policy.ts"]);
		expect(answerOf(run)).toEqual({
			hookSpecificOutput: {
				hookEventName: "PostToolUse",
				additionalContext: "xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\nREPLACED-BY-HOOK",
			},
		});
		expect(run.stderr).toContain("the original stays visible");
	}, 60_000);
});
