import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { join } from "node:path";
import type { AgentTool, HookAPI } from "../../src/index.ts";
import { createHookHarness } from "../../src/testing/index.ts";
import { createBashTool } from "../../src/tools/index.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const echoTool = (log: string[] = []): AgentTool => ({
	name: "echo",
	label: "Echo",
	description: "echoes its text",
	parameters: Type.Object({ text: Type.String() }),
	async execute(_id, params) {
		log.push(String(params.text));
		return { content: [{ type: "text", text: String(params.text) }], details: { length: String(params.text).length } };
	},
});

describe("loading", () => {
	test("loads a hook file by path, relative to cwd", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"hooks/deny.ts": `export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "no" }));`,
		});
		const h = await createHookHarness("hooks/deny.ts", { cwd: dir });
		expect(h.hook.path).toBe("hooks/deny.ts");
		expect(h.hook.resolvedPath).toBe(join(dir, "hooks/deny.ts"));
		expect(await h.toolCall("bash", { command: "ls" })).toEqual({ blocked: true, reason: "no" });
	}, 60_000);

	test("a file that fails to load rejects with the loader's message", async () => {
		const dir = tempDir();
		writeFiles(dir, { "bad.ts": "export const x = 1;" });
		await expect(createHookHarness(join(dir, "bad.ts"))).rejects.toThrow("Hook must export a default function");
		await expect(createHookHarness(join(dir, "missing.ts"))).rejects.toThrow("file not found");
	}, 60_000);

	test("a shell hook in pre/ is adapted like the loader does", async () => {
		const dir = tempDir();
		writeFiles(dir, { "pre/bash.sh": `#!/bin/sh\necho "shell says no" >&2\nexit 2\n` });
		const h = await createHookHarness(join(dir, "pre/bash.sh"), { cwd: dir });
		expect(await h.toolCall("bash", { command: "ls" })).toEqual({ blocked: true, reason: "shell says no" });
		expect((await h.toolCall("read", { path: "x" })).blocked).toBe(false);
	}, 60_000);

	test("a factory's errors name it in HookError.hookPath", async () => {
		const h = await createHookHarness(function noisy(pi: HookAPI) {
			pi.on("agent_start", () => {
				throw new Error("boom");
			});
		});
		await h.emit({ type: "agent_start" });
		expect(h.errors).toHaveLength(1);
		expect(h.errors[0]).toMatchObject({ hookPath: "<factory noisy>", event: "agent_start", error: "boom" });
	}, 60_000);
});

describe("tool events", () => {
	test("toolCall: allowed, blocked with a reason, and a throwing handler blocks (fail closed)", async () => {
		const h = await createHookHarness((pi) => {
			pi.on("tool_call", (event) => {
				if (event.input.mode === "throw") throw new Error("handler crashed");
				if (event.input.mode === "throw-string") throw "plain string";
				if (event.input.mode === "block") return { block: true, reason: "policy" };
			});
		});
		expect(await h.toolCall("bash", { mode: "ok" })).toEqual({ blocked: false });
		expect(await h.toolCall("bash", { mode: "block" })).toEqual({ blocked: true, reason: "policy" });
		const crashed = await h.toolCall("bash", { mode: "throw" });
		expect(crashed.blocked).toBe(true);
		expect(crashed.reason).toBe("handler crashed");
		expect(crashed.error).toBeInstanceOf(Error);
		expect((await h.toolCall("bash", { mode: "throw-string" })).reason).toBe("Hook failed, blocking execution: plain string");
	}, 60_000);

	test("toolResult: plain text in, overridden content and details out", async () => {
		const h = await createHookHarness((pi) => {
			pi.on("tool_result", (event) => {
				if (event.isError) return { content: [{ type: "text", text: "masked error" }] };
				const text = event.content.map((b) => (b.type === "text" ? b.text : "")).join("");
				return { content: [{ type: "text", text: text.toUpperCase() }], details: { seen: event.details } };
			});
		});
		const result = await h.toolResult("read", { path: "a" }, "hello", { details: 7 });
		expect(result).toEqual({ content: [{ type: "text", text: "HELLO" }], details: { seen: 7 }, text: "HELLO" });
		expect((await h.toolResult("read", {}, "x", { isError: true })).text).toBe("masked error");
	}, 60_000);

	test("toolResult without an override returns the original", async () => {
		const h = await createHookHarness(() => {});
		const content = [
			{ type: "text" as const, text: "a" },
			{ type: "image" as const, data: "AA==", mimeType: "image/png" },
			{ type: "text" as const, text: "b" },
		];
		expect(await h.toolResult("read", {}, content, { details: { n: 1 } })).toEqual({ content, details: { n: 1 }, text: "a\nb" });
	}, 60_000);

	test("runTool goes through the real wrapper: blocked calls never run, results are rewritten", async () => {
		const log: string[] = [];
		const h = await createHookHarness((pi) => {
			pi.on("tool_call", (event) => (event.input.text === "secret" ? { block: true, reason: "no secrets" } : undefined));
			pi.on("tool_result", (event) => ({ content: [{ type: "text", text: `[${event.toolName}] ok` }] }));
		});
		await expect(h.runTool(echoTool(log), { text: "secret" })).rejects.toThrow("no secrets");
		expect(log).toEqual([]);
		const result = await h.runTool(echoTool(log), { text: "hi" });
		expect(result).toEqual({ content: [{ type: "text", text: "[echo] ok" }], details: { length: 2 } });
		expect(log).toEqual(["hi"]);
	}, 60_000);
	test("runTool with the real bash tool", async () => {
		const dir = tempDir();
		const h = await createHookHarness(
			(pi) => {
				pi.on("tool_call", (event) => (String(event.input.command).includes("rm ") ? { block: true, reason: "no rm" } : undefined));
				pi.on("tool_result", (event) => ({
					content: event.content.map((b) => (b.type === "text" ? { ...b, text: b.text.replace("secret", "***") } : b)),
				}));
			},
			{ cwd: dir },
		);
		const bash = createBashTool(dir);
		await expect(h.runTool(bash, { command: "rm -r ." })).rejects.toThrow("no rm");
		const result = await h.runTool(bash, { command: "echo my secret; pwd" });
		expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("my ***") }]);
		expect(JSON.stringify(result.content)).toContain(dir);
	}, 60_000);
});

describe("other events", () => {
	test("emit returns the runner's result; context chains; beforeAgentStart keeps the first message", async () => {
		const h = await createHookHarness((pi) => {
			pi.on("session_before_switch", (event) => (event.reason === "new" ? { cancel: true } : undefined));
			pi.on("context", (event) => ({ messages: event.messages.filter((m) => m.role !== "custom") }));
			pi.on("before_agent_start", (event) => ({
				message: { customType: "hint", content: `re: ${event.prompt}`, display: false, details: undefined },
			}));
		});
		expect(await h.emit({ type: "session_before_switch", reason: "new" })).toEqual({ cancel: true });
		expect(await h.emit({ type: "session_before_switch", reason: "resume" })).toBeUndefined();
		const kept = await h.context([
			{ role: "user", content: "hi" },
			{ role: "custom", customType: "debug", content: "noise", display: false },
		]);
		expect(kept).toEqual([{ role: "user", content: "hi" }]);
		expect((await h.beforeAgentStart("fix it"))?.message?.content).toBe("re: fix it");
	}, 60_000);
});

describe("recordings", () => {
	test("messages and entries are recorded and land in the session", async () => {
		const h = await createHookHarness((pi) => {
			pi.on("agent_end", () => {
				pi.sendMessage({ customType: "note", content: "done", display: true }, { triggerTurn: true });
				pi.sendMessage({ customType: "note", content: "quiet", display: false });
				pi.appendEntry("state", { count: 1 });
			});
		});
		await h.emit({ type: "agent_end", messages: [] });
		expect(h.messages).toEqual([
			{ message: { customType: "note", content: "done", display: true }, options: { triggerTurn: true } },
			{ message: { customType: "note", content: "quiet", display: false } },
		]);
		expect(h.entries).toEqual([{ customType: "state", data: { count: 1 } }]);
		expect(h.session.getEntries().map((e) => e.type)).toEqual(["custom_message", "custom_message", "custom"]);
	}, 60_000);

	test("notifications, statuses, the rendered status line and the editor text", async () => {
		const h = await createHookHarness(
			(pi) => {
				pi.on("turn_start", (event, ctx) => {
					ctx.ui.notify("starting");
					ctx.ui.notify("careful", "warning");
					ctx.ui.setStatus("b-turn", `turn\n${event.turnIndex}`);
					ctx.ui.setStatus("a-model", ctx.model?.id ?? "none");
					ctx.ui.setEditorText(`${ctx.ui.getEditorText()}draft`);
				});
				pi.on("agent_end", (_event, ctx) => ctx.ui.setStatus("b-turn", undefined));
			},
			{ model: { id: "m1", provider: "p" } },
		);
		await h.emit({ type: "turn_start", turnIndex: 3, timestamp: 0 });
		expect(h.notifications).toEqual([
			{ message: "starting", type: "info" },
			{ message: "careful", type: "warning" },
		]);
		expect([...h.statuses]).toEqual([
			["b-turn", "turn\n3"],
			["a-model", "m1"],
		]);
		expect(h.statusLine()).toBe("m1 turn 3");
		expect(h.statusLine(5)).toBe("m1 t…");
		expect(h.editorText).toBe("draft");
		await h.emit({ type: "agent_end", messages: [] });
		expect(h.statusLine()).toBe("m1");
	}, 60_000);
});

describe("commands", () => {
	test("runs a registered command with a command context", async () => {
		const h = await createHookHarness(
			(pi) => {
				pi.registerCommand("hello", {
					description: "greets",
					handler: async (args, ctx) => {
						await ctx.waitForIdle();
						ctx.ui.notify(`hello ${args}`);
						pi.appendEntry("hello", { args, cwd: ctx.cwd });
					},
				});
			},
			{ cwd: "/tmp" },
		);
		await h.command("hello", "world");
		expect(h.notifications).toEqual([{ message: "hello world", type: "info" }]);
		expect(h.entries).toEqual([{ customType: "hello", data: { args: "world", cwd: "/tmp" } }]);
	}, 60_000);

	test("an unknown command rejects, listing the registered ones", async () => {
		const h = await createHookHarness((pi) => {
			pi.registerCommand("alpha", { handler: async () => {} });
			pi.registerCommand("beta", { handler: async () => {} });
		});
		await expect(h.command("gamma")).rejects.toThrow('Unknown command "gamma"; registered: alpha, beta');
		const none = await createHookHarness(() => {});
		await expect(none.command("x")).rejects.toThrow("registered: none");
	}, 60_000);
});
