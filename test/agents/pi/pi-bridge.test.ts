/** pi's bridge dialect, in-process: pi's captured events → our events, our outcomes → the answers the extension applies. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { piBridge } from "../../../src/agents/pi/bridge.ts";
import { mapPayload } from "../../../src/bridges/map.ts";
import type { Outcome } from "../../../src/agents/_shared/bridge-types.ts";

const fixture = (name: string) =>
	JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "bridges", "fixtures", "pi", `${name}.json`), "utf8")) as Record<
		string,
		unknown
	>;

const answer = (event: string, outcome: Outcome) => {
	const text = piBridge.answer(event, {}, outcome, { messages: [], warn: () => {} });
	return text ? JSON.parse(text) : undefined;
};

describe("pi bridge", () => {
	test("pi's tool_call and tool_result become ours, with pi's ids, bash as bash, the output's text as content", () => {
		const call = mapPayload(piBridge, "tool_call", fixture("tool_call"));
		expect(call.kind === "event" && call.event).toMatchObject({
			type: "tool_call",
			toolName: "bash",
			toolCallId: "call_1",
			input: { command: "rm -rf build" },
		});
		const result = mapPayload(piBridge, "tool_result", fixture("tool_result"));
		expect(result.kind === "event" && result.event).toMatchObject({
			type: "tool_result",
			toolCallId: "call_2",
			content: [{ type: "text", text: "HARMLESS-OUTPUT-42 API_KEY=sk-live-123\n" }],
			isError: false,
		});
		expect(piBridge.projectDirs(fixture("tool_call"), {})).toEqual(["/home/user/proj"]);
		expect(piBridge.sessionId(fixture("tool_call"))).toBe("pi-session-1");
		for (const name of ["session_start", "before_agent_start"]) expect(mapPayload(piBridge, name, fixture(name)).kind).toBe("event");
	});

	test("a payload without its fields is invalid, naming the field", () => {
		const payload = fixture("tool_call");
		delete payload.input;
		expect(mapPayload(piBridge, "tool_call", payload)).toEqual({ kind: "invalid", errors: ["input: missing, expected an object"] });
	});

	test("answers: block with a reason (never empty), a whole input, replaced content without isError, a context message, cancel", () => {
		expect(answer("tool_call", { kind: "deny", reason: "no" })).toEqual({ block: true, reason: "no" });
		expect(answer("tool_call", { kind: "deny", reason: " " })).toEqual({ block: true, reason: "blocked by an xcsh hook" });
		expect(answer("tool_call", { kind: "rewrite", input: { command: "ls", description: "d" } })).toEqual({
			input: { command: "ls", description: "d" },
		});
		expect(answer("tool_result", { kind: "replace", text: "***" })).toEqual({ content: [{ type: "text", text: "***" }] });
		expect(answer("before_agent_start", { kind: "context", text: "ctx" })).toEqual({
			message: { customType: "xcsh-hooks", content: "ctx", display: false },
		});
		expect(answer("session_before_compact", { kind: "cancel", reason: "x" })).toEqual({ cancel: true });
		expect(answer("session_start", { kind: "none" })).toBeUndefined();
		expect(JSON.parse(piBridge.denyUnknown("why"))).toEqual({ block: true, reason: "why" });
	});
});
