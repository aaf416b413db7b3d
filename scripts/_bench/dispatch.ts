/**
 * In-process dispatch: `HookRunner.emit*` against a hand-written `Map` + `await` loop and against
 * hookable's `callHook`, all three holding the same handlers; and `HookToolWrapper` against calling
 * the tool directly.
 */
import { Type } from "@sinclair/typebox";
import { createHooks, type HookCallback } from "hookable";
import { loadHookFromFactory } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import type { AgentTool, AgentToolResult, AnyHookHandler, HookContext } from "../../src/hooks/types.ts";
import type { AgentMessage } from "../../src/messages.ts";
import { compare } from "./micro.ts";
import { formatNs, formatRatio, type Report } from "./report.ts";

// biome-ignore lint/suspicious/noExplicitAny: one handler type for every event the bench dispatches.
type Handler = (event: any, ctx: HookContext) => unknown;

/** A runner over one hook that registered `handlers` for `type`, initialized like a host would. */
async function runnerWith(type: string, handlers: Handler[]): Promise<HookRunner> {
	const hook = await loadHookFromFactory(
		(pi) => {
			for (const handler of handlers) (pi.on as (event: string, handler: AnyHookHandler) => void)(type, handler as AnyHookHandler);
		},
		"bench-hook.ts",
		process.cwd(),
	);
	const runner = new HookRunner([hook], process.cwd());
	runner.initialize({ getModel: () => undefined, sendMessageHandler: () => {}, appendEntryHandler: () => {} });
	return runner;
}

function hookableWith(type: string, handlers: Handler[]) {
	const hooks = createHooks<Record<string, HookCallback>>();
	for (const handler of handlers) hooks.hook(type, handler as HookCallback);
	return hooks;
}

const handlerOf = (kind: "async" | "sync"): Handler => (kind === "async" ? async () => {} : () => {});

/** One comparison of the three dispatchers, printed as a line; resolves the ratios. */
async function threeWay(
	report: Report,
	label: string,
	candidates: { xcsh: () => unknown; map: () => unknown; hookable: () => unknown },
): Promise<{ map: number; hookable: number; spread: { map: string; hookable: string } }> {
	// --check triples the rounds: a budget's median then moves less from noise than its margin.
	const c = await compare(
		[
			{ name: "xcsh", fn: candidates.xcsh },
			{ name: "map", fn: candidates.map },
			{ name: "hookable", fn: candidates.hookable },
		],
		{ rounds: report.rounds(15) },
	);
	const ns = Object.fromEntries(c.results.map((r) => [r.name, r.nsPerOp]));
	const ratios = { map: c.ratio("xcsh", "map"), hookable: c.ratio("xcsh", "hookable") };
	await report.line(
		label,
		`${formatNs(ns.xcsh as number).padStart(9)}  Map+await ${formatNs(ns.map as number).padStart(9)}  hookable ${formatNs(ns.hookable as number).padStart(9)}  ` +
			`→ ${formatRatio(ratios.map)} Map, ${formatRatio(ratios.hookable)} hookable`,
	);
	return { ...ratios, spread: { map: c.spread("xcsh", "map"), hookable: c.spread("xcsh", "hookable") } };
}

/** `emit` of an event that keeps no result, N async or sync handlers. */
async function plainEmit(report: Report): Promise<void> {
	await report.section("emit dispatch", "ns per emit, median of interleaved rounds; xcsh vs Map+await vs hookable");
	for (const n of [1, 10, 100]) {
		for (const kind of ["async", "sync"] as const) {
			const handlers = Array.from({ length: n }, () => handlerOf(kind));
			const runner = await runnerWith("turn_start", handlers);
			const ctx = runner.createContext();
			const map = new Map<string, Handler[]>([["turn_start", handlers]]);
			const mapEmit = async (event: { type: string }) => {
				const list = map.get(event.type);
				if (!list) return;
				for (const handler of list) await handler(event, ctx);
			};
			const hooks = hookableWith("turn_start", handlers);
			const event = { type: "turn_start", turnIndex: 0, timestamp: 0 } as const;
			const ratios = await threeWay(report, `emit, N=${n} ${kind}`, {
				xcsh: () => runner.emit(event),
				map: () => mapEmit(event),
				hookable: () => hooks.callHook("turn_start", event, ctx),
			});
			if (kind === "async" && n >= 10) {
				report.budget(`emit N=${n} async vs Map+await`, ratios.map, 1.2, undefined, undefined, ratios.spread.map);
				report.budget(`emit N=${n} async vs hookable`, ratios.hookable, 0.5, undefined, undefined, ratios.spread.hookable);
			}
		}
	}
}

/**
 * `emitContext`: each handler gets the previous one's messages. The baselines keep the same contract
 * as the runner — handlers work on a deep copy, never on the caller's array — so the ratio is the
 * dispatch, not the copy.
 */
async function chainedEmit(report: Report): Promise<void> {
	const messages: AgentMessage[] = [
		{ role: "user", content: "list the files", timestamp: 1 },
		{ role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: 2 },
	] as AgentMessage[];
	for (const n of [10, 100]) {
		const handler: Handler = async (event: { messages: AgentMessage[] }) => ({ messages: event.messages });
		const handlers = Array.from({ length: n }, () => handler);
		const runner = await runnerWith("context", handlers);
		const ctx = runner.createContext();
		const map = new Map<string, Handler[]>([["context", handlers]]);
		const chain = async (list: readonly Handler[], input: AgentMessage[]) => {
			let current = structuredClone(input);
			for (const h of list) {
				const result = (await h({ type: "context", messages: current }, ctx)) as { messages?: AgentMessage[] } | undefined;
				if (result?.messages) current = result.messages;
			}
			return current;
		};
		const hooks = hookableWith("context", handlers);
		await threeWay(report, `emitContext (chained), N=${n} async`, {
			xcsh: () => runner.emitContext(messages),
			map: () => chain(map.get("context") ?? [], messages),
			hookable: () => hooks.callHookWith((list, args) => chain(list as Handler[], (args as [AgentMessage[]])[0]), "context", [messages]),
		});
	}
}

/** `emitToolCall` with `{block: true}` from the middle handler: the rest never run. */
async function shortCircuitEmit(report: Report): Promise<void> {
	for (const n of [10, 100]) {
		const handlers: Handler[] = Array.from({ length: n }, (_, i) =>
			i === n >> 1 ? async () => ({ block: true, reason: "bench" }) : async () => undefined,
		);
		const runner = await runnerWith("tool_call", handlers);
		const ctx = runner.createContext();
		const map = new Map<string, Handler[]>([["tool_call", handlers]]);
		const untilBlock = async (list: readonly Handler[], event: unknown) => {
			let last: { block?: boolean } | undefined;
			for (const h of list) {
				const result = (await h(event, ctx)) as { block?: boolean } | undefined;
				if (!result) continue;
				last = result;
				if (result.block) return result;
			}
			return last;
		};
		const hooks = hookableWith("tool_call", handlers);
		const event = { type: "tool_call", toolName: "bash", toolCallId: "call_1", input: { command: "ls" } } as const;
		await threeWay(report, `emitToolCall (block at N/2), N=${n} async`, {
			xcsh: () => runner.emitToolCall(event),
			map: () => untilBlock(map.get("tool_call") ?? [], event),
			hookable: () => hooks.callHookWith((list, args) => untilBlock(list as Handler[], (args as [unknown])[0]), "tool_call", [event]),
		});
	}
}

/** `HookToolWrapper.execute` with no handlers, and with one `tool_call` + one `tool_result` handler. */
async function toolWrapper(report: Report): Promise<void> {
	await report.section("HookToolWrapper", "ns per call of a tool that resolves at once");
	const result: AgentToolResult<undefined> = { content: [{ type: "text", text: "ok" }], details: undefined };
	const tool: AgentTool<{ n: number }, undefined> = {
		name: "echo",
		label: "Echo",
		description: "Resolves a constant result",
		parameters: Type.Object({ n: Type.Number() }),
		execute: async () => result,
	};
	const bare = new HookToolWrapper(tool, new HookRunner([], process.cwd()));
	const hook = await loadHookFromFactory(
		(pi) => {
			pi.on("tool_call", async () => undefined);
			pi.on("tool_result", async () => undefined);
		},
		"bench-wrapper.ts",
		process.cwd(),
	);
	const hooked = new HookToolWrapper(tool, new HookRunner([hook], process.cwd()));
	const params = { n: 1 };
	const c = await compare(
		[
			{ name: "direct", fn: () => tool.execute("call_1", params) },
			{ name: "bare", fn: () => bare.execute("call_1", params) },
			{ name: "hooked", fn: () => hooked.execute("call_1", params) },
		],
		{ rounds: report.rounds(15) },
	);
	const ns = Object.fromEntries(c.results.map((r) => [r.name, r.nsPerOp]));
	const bareRatio = c.ratio("bare", "direct");
	await report.line("tool called directly", formatNs(ns.direct as number));
	await report.line("wrapper, no handlers", `${formatNs(ns.bare as number)}  → ${formatRatio(bareRatio)} direct`);
	await report.line(
		"wrapper, 1 pre + 1 post handler",
		`${formatNs(ns.hooked as number)}  → ${formatRatio(c.ratio("hooked", "direct"))} direct`,
	);
	report.budget("HookToolWrapper, no handlers vs direct call", bareRatio, 2, undefined, undefined, c.spread("bare", "direct"));
}

/** Every in-process dispatch measurement. */
export async function benchDispatch(report: Report): Promise<void> {
	await plainEmit(report);
	await chainedEmit(report);
	await shortCircuitEmit(report);
	await toolWrapper(report);
}
