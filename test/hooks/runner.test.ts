import { beforeEach, describe, expect, test } from "bun:test";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import type { HookError, ToolCallEvent, ToolResultEvent } from "../../src/hooks/types.ts";
import type { AgentMessage } from "../../src/messages.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

/** Hook files record their calls in globalThis.__calls so tests can see order and who ran. */
declare global {
	var __calls: string[];
}
beforeEach(() => {
	globalThis.__calls = [];
});

async function runnerFor(files: Record<string, string>, options?: ConstructorParameters<typeof HookRunner>[4]) {
	const dir = tempDir();
	writeFiles(dir, files);
	const { hooks, errors } = await loadHooks(Object.keys(files), dir);
	expect(errors).toEqual([]);
	const runner = new HookRunner(hooks, dir, undefined, undefined, options);
	const reported: HookError[] = [];
	runner.onError((e) => reported.push(e));
	return { runner, reported, dir };
}

const toolCall: ToolCallEvent = { type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "ls" } };
const toolResult: ToolResultEvent = {
	type: "tool_result",
	toolName: "bash",
	toolCallId: "c1",
	input: {},
	content: [{ type: "text", text: "out" }],
	details: undefined,
	isError: false,
};

describe("HookRunner dispatch order", () => {
	test("hooks in array order, then handlers in registration order", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.on("turn_start", () => { __calls.push("a1"); });
				pi.on("turn_start", async () => { __calls.push("a2"); });
			};`,
			"b.ts": `export default (pi) => { pi.on("turn_start", () => { __calls.push("b1"); }); };`,
		});
		expect(await runner.emit({ type: "turn_start", turnIndex: 0, timestamp: 1 })).toBeUndefined();
		expect(globalThis.__calls).toEqual(["a1", "a2", "b1"]);
	});

	test("events other than session_before_*, tool_result and session.compacting resolve undefined", async () => {
		const { runner } = await runnerFor({ "a.ts": `export default (pi) => pi.on("agent_start", () => ({ anything: 1 }));` });
		expect(await runner.emit({ type: "agent_start" })).toBeUndefined();
	});
});

describe("emitToolCall", () => {
	test("the first block short-circuits: later handlers do not run", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.on("tool_call", () => { __calls.push("a"); return { block: false, reason: "first" }; });
				pi.on("tool_call", () => { __calls.push("b"); return { block: true, reason: "stop" }; });
			};`,
			"c.ts": `export default (pi) => pi.on("tool_call", () => { __calls.push("c"); });`,
		});
		expect(await runner.emitToolCall(toolCall)).toEqual({ block: true, reason: "stop" });
		expect(globalThis.__calls).toEqual(["a", "b"]);
	});

	test("without a block the last truthy result wins", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.on("tool_call", () => ({ reason: "one" }));
				pi.on("tool_call", () => ({ reason: "two" }));
				pi.on("tool_call", () => undefined);
			};`,
		});
		expect(await runner.emitToolCall(toolCall)).toEqual({ reason: "two" });
	});

	test("handler errors propagate to the caller and are not sent to onError", async () => {
		const { runner, reported } = await runnerFor({
			"a.ts": `export default (pi) => pi.on("tool_call", async () => { throw new Error("policy crashed"); });`,
			"b.ts": `export default (pi) => pi.on("tool_call", () => { __calls.push("b"); });`,
		});
		await expect(runner.emitToolCall(toolCall)).rejects.toThrow("policy crashed");
		expect(globalThis.__calls).toEqual([]);
		expect(reported).toEqual([]);
	});

	test("handlers receive the event and a context", async () => {
		const { runner, dir } = await runnerFor({
			"a.ts": `export default (pi) => pi.on("tool_call", (event, ctx) => {
				__calls.push(JSON.stringify(event), ctx.cwd, String(ctx.hasUI), String(ctx.isIdle()), String(ctx.model?.id));
			});`,
		});
		runner.initialize({
			getModel: () => ({ id: "m1", provider: "p" }),
			sendMessageHandler: () => {},
			appendEntryHandler: () => {},
			isIdle: () => false,
		});
		await runner.emitToolCall(toolCall);
		expect(globalThis.__calls).toEqual([JSON.stringify(toolCall), dir, "false", "false", "m1"]);
	});

	test("initializing again rewires the context handlers get: its UI and host callbacks, for every emit method", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				const see = (ctx) => { __calls.push(String(ctx.hasUI) + ":" + String(ctx.isIdle()) + ":" + String(ctx.model?.id)); };
				pi.on("agent_start", (_e, ctx) => see(ctx));
				pi.on("tool_call", (_e, ctx) => see(ctx));
				pi.on("context", (_e, ctx) => see(ctx));
				pi.on("before_agent_start", (_e, ctx) => see(ctx));
			};`,
		});
		const emitAll = async () => {
			await runner.emit({ type: "agent_start" });
			await runner.emitToolCall(toolCall);
			await runner.emitContext([]);
			await runner.emitBeforeAgentStart("hi");
		};
		await emitAll();
		runner.initialize({
			getModel: () => ({ id: "m2", provider: "p" }),
			sendMessageHandler: () => {},
			appendEntryHandler: () => {},
			isIdle: () => false,
			uiContext: runner.getUIContext(),
			hasUI: true,
		});
		await emitAll();
		expect(globalThis.__calls).toEqual([...Array(4).fill("false:true:undefined"), ...Array(4).fill("true:false:m2")]);
	});
});

describe("emit: results and errors", () => {
	test("tool_result: chained, every handler runs and sees the replacements before it; the result keeps them all", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => pi.on("tool_result", (e) => { __calls.push("a:" + e.content[0].text); return { content: [{ type: "text", text: "a" }] }; });`,
			"b.ts": `export default (pi) => pi.on("tool_result", (e) => { __calls.push("b:" + e.content[0].text); return { details: { b: 1 } }; });`,
			"c.ts": `export default (pi) => pi.on("tool_result", (e) => { __calls.push("c:" + e.content[0].text + ":" + JSON.stringify(e.details)); });`,
		});
		expect(await runner.emit(toolResult)).toEqual({ content: [{ type: "text", text: "a" }], details: { b: 1 } });
		expect(globalThis.__calls).toEqual([`a:${(toolResult.content[0] as { text: string }).text}`, "b:a", 'c:a:{"b":1}']);
	});

	test("session_before_*: cancel returns at once; otherwise the last truthy result is kept", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.on("session_before_switch", (e) => { __calls.push("a"); return e.reason === "new" ? { cancel: true } : { cancel: false }; });
				pi.on("session_before_switch", () => { __calls.push("b"); });
				pi.on("session_before_branch", () => ({ skipConversationRestore: true }));
				pi.on("session_before_branch", () => undefined);
			};`,
		});
		expect(await runner.emit({ type: "session_before_switch", reason: "new" })).toEqual({ cancel: true });
		expect(globalThis.__calls).toEqual(["a"]);
		expect(await runner.emit({ type: "session_before_switch", reason: "resume" })).toEqual({ cancel: false });
		expect(globalThis.__calls).toEqual(["a", "a", "b"]);
		expect(await runner.emit({ type: "session_before_branch", entryId: "e1" })).toEqual({ skipConversationRestore: true });
	});

	test("session.compacting: the last truthy result wins", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.on("session.compacting", () => ({ context: ["one"] }));
				pi.on("session.compacting", () => ({ prompt: "two" }));
			};`,
		});
		expect(await runner.emit({ type: "session.compacting" })).toEqual({ prompt: "two" });
	});

	test("errors go to onError with hook path and event; dispatch continues; unsubscribe works", async () => {
		const { runner, reported } = await runnerFor({
			"bad.ts": `export default (pi) => pi.on("tool_result", () => { throw new Error("boom"); });`,
			"good.ts": `export default (pi) => pi.on("tool_result", () => ({ details: "ok" }));`,
		});
		expect(await runner.emit(toolResult)).toEqual({ details: "ok" });
		expect(reported).toHaveLength(1);
		expect(reported[0]).toMatchObject({ hookPath: "bad.ts", event: "tool_result", error: "boom" });
		expect(reported[0]?.stack).toContain("boom");

		const second: HookError[] = [];
		const off = runner.onError((e) => second.push(e));
		off();
		await runner.emit(toolResult);
		expect(second).toEqual([]);
		expect(reported).toHaveLength(2);
	});

	test("a non-Error throw is reported as its string", async () => {
		const { runner, reported } = await runnerFor({ "a.ts": `export default (pi) => pi.on("agent_start", () => { throw "plain"; });` });
		await runner.emit({ type: "agent_start" });
		expect(reported[0]?.error).toBe("plain");
	});
});

describe("emitContext", () => {
	const messages: AgentMessage[] = [
		{ role: "user", content: "hello" },
		{ role: "custom", customType: "debug-only", content: "noise", display: false },
	];

	test("chains: each handler sees the previous output; errors reported, chain continues", async () => {
		const { runner, reported } = await runnerFor({
			"filter.ts": `export default (pi) => pi.on("context", (e) => ({ messages: e.messages.filter((m) => m.customType !== "debug-only") }));`,
			"bad.ts": `export default (pi) => pi.on("context", () => { throw new Error("ctx boom"); });`,
			"append.ts": `export default (pi) => {
				pi.on("context", (e) => { __calls.push(String(e.messages.length)); return { messages: [...e.messages, { role: "user", content: "extra" }] }; });
				pi.on("context", () => undefined);
			};`,
		});
		const out = await runner.emitContext(messages);
		expect(out).toEqual([
			{ role: "user", content: "hello" },
			{ role: "user", content: "extra" },
		]);
		expect(globalThis.__calls).toEqual(["1"]);
		expect(reported.map((e) => [e.hookPath, e.event])).toEqual([["bad.ts", "context"]]);
		expect(messages).toHaveLength(2);
	});

	test("handlers that mutate in place never touch the caller's messages", async () => {
		const { runner } = await runnerFor({
			"mutate.ts": `export default (pi) => pi.on("context", (e) => { e.messages[0].content = "changed"; });`,
		});
		const input: AgentMessage[] = [{ role: "user", content: "original" }];
		const out = await runner.emitContext(input);
		expect(input[0]).toEqual({ role: "user", content: "original" });
		expect(out[0]).toEqual({ role: "user", content: "changed" });
	});

	test("without handlers the messages come back as they are", async () => {
		const { runner } = await runnerFor({ "a.ts": `export default () => {};` });
		expect(await runner.emitContext(messages)).toBe(messages);
	});
});

describe("emitBeforeAgentStart", () => {
	test("all handlers run; the first result with a message is kept", async () => {
		const { runner, reported } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.on("before_agent_start", (e) => { __calls.push("a:" + e.prompt); return {}; });
				pi.on("before_agent_start", () => { throw new Error("bas boom"); });
			};`,
			"b.ts": `export default (pi) => pi.on("before_agent_start", () => { __calls.push("b"); return { message: { customType: "b", content: "B", display: true } }; });`,
			"c.ts": `export default (pi) => pi.on("before_agent_start", () => { __calls.push("c"); return { message: { customType: "c", content: "C", display: true } }; });`,
		});
		const result = await runner.emitBeforeAgentStart("go");
		expect(result).toEqual({ message: { customType: "b", content: "B", display: true } });
		expect(globalThis.__calls).toEqual(["a:go", "b", "c"]);
		expect(reported.map((e) => e.error)).toEqual(["bas boom"]);
	});
});

describe("commands, renderers and host wiring", () => {
	test("getCommand and getMessageRenderer: first loaded wins; getRegisteredCommands keeps all", async () => {
		const { runner } = await runnerFor({
			"a.ts": `export default (pi) => {
				pi.registerCommand("deploy", { description: "from a", handler: async () => {} });
				pi.registerMessageRenderer("note", () => "a");
			};`,
			"b.ts": `export default (pi) => {
				pi.registerCommand("deploy", { description: "from b", handler: async () => {} });
				pi.registerCommand("other", { handler: async () => {} });
				pi.registerMessageRenderer("note", () => "b");
			};`,
		});
		expect(runner.getCommand("deploy")?.description).toBe("from a");
		expect(runner.getCommand("missing")).toBeUndefined();
		expect(runner.getRegisteredCommands().map((c) => `${c.name}:${c.description}`)).toEqual([
			"deploy:from a",
			"deploy:from b",
			"other:undefined",
		]);
		const renderer = runner.getMessageRenderer("note");
		expect(
			renderer?.({ role: "custom", customType: "note", content: "", display: true }, { expanded: false }, runner.getUIContext().theme),
		).toBe("a");
		expect(runner.getHookPaths()).toEqual(["a.ts", "b.ts"]);
		expect(runner.hasHandlers("tool_call")).toBe(false);
	});

	test("without initialize: no-op UI, hasUI false; createCommandContext forwards to the host", async () => {
		const { runner } = await runnerFor({ "a.ts": `export default () => {};` });
		expect(runner.getHasUI()).toBe(false);
		expect(await runner.getUIContext().confirm("t", "m")).toBe(false);
		const calls: string[] = [];
		runner.initialize({
			getModel: () => undefined,
			sendMessageHandler: () => {},
			appendEntryHandler: () => {},
			newSessionHandler: async (o) => (calls.push(`new:${o?.parentSession}`), { cancelled: true }),
			branchHandler: async (id) => (calls.push(`branch:${id}`), { cancelled: false }),
			navigateTreeHandler: async (id, o) => (calls.push(`tree:${id}:${o?.summarize}`), { cancelled: false }),
			waitForIdle: async () => void calls.push("idle"),
			abort: () => calls.push("abort"),
			hasQueuedMessages: () => true,
		});
		const ctx = runner.createCommandContext();
		await ctx.waitForIdle();
		expect(await ctx.newSession({ parentSession: "p.jsonl" })).toEqual({ cancelled: true });
		await ctx.branch("e1");
		await ctx.navigateTree("e2", { summarize: true });
		ctx.abort();
		expect(ctx.hasQueuedMessages()).toBe(true);
		expect(calls).toEqual(["idle", "new:p.jsonl", "branch:e1", "tree:e2:true", "abort"]);
	});
});

describe("handler timeouts (off by default)", () => {
	const slow = `export default (pi) => {
		pi.on("tool_call", () => new Promise((r) => setTimeout(r, 5000)));
		pi.on("agent_start", () => new Promise((r) => setTimeout(r, 5000)));
	};`;

	test("a timed-out tool_call handler rejects (the wrapper then blocks)", async () => {
		const { runner } = await runnerFor({ "slow.ts": slow }, { handlerTimeoutMs: 50 });
		await expect(runner.emitToolCall(toolCall)).rejects.toThrow("tool_call handler timed out after 50 ms");
	});

	test("an event timeout of 0 turns the default timeout off for that event only", async () => {
		const late = `export default (pi) => {
			pi.on("tool_call", () => new Promise((r) => setTimeout(() => r({ block: true, reason: "late but heard" }), 80)));
			pi.on("agent_start", () => new Promise((r) => setTimeout(r, 80)));
		};`;
		const { runner, reported } = await runnerFor({ "late.ts": late }, { handlerTimeoutMs: 20, eventTimeouts: { tool_call: 0 } });
		expect(await runner.emitToolCall(toolCall)).toEqual({ block: true, reason: "late but heard" });
		await runner.emit({ type: "agent_start" });
		expect(reported.map((e) => e.error)).toEqual(["agent_start handler timed out after 20 ms"]);
	});

	test("a timed-out emit handler is reported through onError", async () => {
		const { runner, reported } = await runnerFor({ "slow.ts": slow }, { eventTimeouts: { agent_start: 40 } });
		await runner.emit({ type: "agent_start" });
		expect(reported.map((e) => e.error)).toEqual(["agent_start handler timed out after 40 ms"]);
	});
});
