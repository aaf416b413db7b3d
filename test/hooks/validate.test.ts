import { describe, expect, test } from "bun:test";
import { HOOK_EVENT_TYPES } from "../../src/hooks/schemas.ts";
import type { HookEvent } from "../../src/hooks/types.ts";
import { validateEvent, validateResult } from "../../src/hooks/validate.ts";

describe("validateEvent", () => {
	test("covers every event of the spec", () => {
		expect(HOOK_EVENT_TYPES).toEqual([
			"session_start",
			"session_before_switch",
			"session_switch",
			"session_before_branch",
			"session_branch",
			"session_before_compact",
			"session.compacting",
			"session_compact",
			"session_before_tree",
			"session_tree",
			"session_shutdown",
			"context",
			"before_agent_start",
			"agent_start",
			"agent_end",
			"turn_start",
			"turn_end",
			"auto_compaction_start",
			"auto_compaction_end",
			"auto_retry_start",
			"auto_retry_end",
			"ttsr_triggered",
			"todo_reminder",
			"tool_call",
			"tool_result",
			"permission_request",
			"subagent_start",
			"subagent_end",
		]);
	});

	test("returns the typed event when valid", () => {
		const event: HookEvent = { type: "tool_call", toolName: "bash", toolCallId: "1", input: { command: "ls" } };
		expect(validateEvent(event)).toEqual({ ok: true, value: event });
		expect(validateEvent({ type: "session_before_switch", reason: "fork" }).ok).toBe(true);
	});

	test("names the offending field", () => {
		const result = validateEvent({ type: "turn_start", turnIndex: "x", timestamp: 1 });
		expect(result).toEqual({ ok: false, errors: ['turn_start.turnIndex: expected integer (got "x")'] });
		const missing = validateEvent({ type: "tool_call", toolName: "bash", toolCallId: "1" });
		expect(missing.ok).toBe(false);
		if (!missing.ok) expect(missing.errors[0]).toStartWith("tool_call.input: expected required property");
		const nested = validateEvent({ type: "context", messages: [{ role: "user", content: 3 }] });
		expect(nested.ok).toBe(false);
		if (!nested.ok) expect(nested.errors.join("\n")).toContain("context.messages[0]");
		const reason = validateEvent({ type: "session_before_switch", reason: "later" });
		if (!reason.ok) expect(reason.errors[0]).toStartWith("session_before_switch.reason:");
	});

	test("unknown or missing type lists what is accepted; non-objects are refused", () => {
		const unknown = validateEvent({ type: "tool_calls" });
		expect(unknown.ok).toBe(false);
		if (!unknown.ok) expect(unknown.errors[0]).toStartWith('unknown event type "tool_calls"; expected one of: session_start');
		const missing = validateEvent({});
		if (!missing.ok) expect(missing.errors[0]).toStartWith("event.type is missing");
		for (const value of [null, [], "x", 3]) expect(validateEvent(value).ok).toBe(false);
	});
});

describe("validateResult", () => {
	test("checks results of events that take one", () => {
		expect(validateResult("tool_call", { block: true, reason: "r" }).ok).toBe(true);
		const bad = validateResult("tool_call", { block: "yes" });
		expect(bad).toEqual({ ok: false, errors: ['tool_call result.block: expected boolean (got "yes")'] });
		expect(validateResult("agent_start", undefined).ok).toBe(true);
		expect(validateResult("agent_start", {}).ok).toBe(false);
	});
});
