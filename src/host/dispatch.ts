import { gateToolCall } from "../hooks/tool-wrapper.ts";
import type { HookEvent, HookLoadError } from "../hooks/types.ts";
import type { Host } from "./host.ts";

/*
 * One event through the runner method that fits it (SPEC §5, §10): the CLI's `emit` and the `serve`
 * loop share it, so both read `tool_call` fail-closed and treat a cancelled `session_before_*` alike.
 */

function loadErrorReason(errors: HookLoadError[]): string {
	return `blocked because a hook failed to load (fail closed; pass --allow-load-errors to run anyway): ${errors
		.map((e) => `${e.path}: ${e.error}`)
		.join("; ")}`;
}

/**
 * Dispatches an event with the runner method that fits it. Resolves the result and, when a tool call
 * was blocked or a `session_before_*` cancelled, why (the CLI then exits 2).
 */
export async function dispatch(host: Host, event: HookEvent, allowLoadErrors: boolean): Promise<{ result: unknown; stopped?: string }> {
	const { runner } = host;
	switch (event.type) {
		case "tool_call": {
			if (host.loadErrors.length > 0 && !allowLoadErrors) {
				const reason = loadErrorReason(host.loadErrors);
				return { result: { block: true, reason }, stopped: reason };
			}
			const gate = await gateToolCall(runner, event);
			if (!gate.block) return { result: gate.result };
			return { result: gate.result ?? { block: true, reason: gate.reason }, stopped: gate.reason };
		}
		case "context":
			return { result: { messages: await runner.emitContext(event.messages) } };
		case "before_agent_start":
			return { result: await runner.emitBeforeAgentStart(event.prompt, event.images) };
		default: {
			const result = await runner.emit(event);
			const cancelled = event.type.startsWith("session_before_") && (result as { cancel?: boolean } | undefined)?.cancel;
			return { result, stopped: cancelled ? `${event.type} was cancelled by a hook` : undefined };
		}
	}
}
