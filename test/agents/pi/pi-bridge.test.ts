/** pi's bridge dialect, in-process: pi's captured events → our events, our outcomes → the answers the extension applies. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { piBridge } from "../../../src/agents/pi/bridge.ts";
import { mapPayload } from "../../../src/agent-call/map.ts";
import type { Outcome } from "../../../src/agents/_shared/bridge-types.ts";
import type { AgentMessage } from "../../../src/messages.ts";

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

	test("context: pi's messages reach hooks in our form only; an unchanged one comes back as pi's object, a changed one keeps pi's fields and unchanged blocks", () => {
		const thinking = { type: "thinking", thinking: "hmm", thinkingSignature: "sig-1" };
		const piMessages = [
			{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 },
			{
				role: "assistant",
				content: [thinking, { type: "text", text: "old", textSignature: "t" }],
				api: "a",
				usage: { input: 1 },
				timestamp: 2,
			},
			{ role: "compactionSummary", summary: "s", timestamp: 0 },
		];
		const payload = { type: "context", cwd: "/p", messages: piMessages };
		const mapped = mapPayload(piBridge, "context", payload);
		const ours = (mapped.kind === "event" && mapped.event.type === "context" ? mapped.event.messages : []) as AgentMessage[];
		expect(ours).toEqual([
			{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hmm" },
					{ type: "text", text: "old" },
				],
				timestamp: 2,
			},
		]);
		const say = (outcome: Outcome) => piBridge.answer("context", payload, outcome, { messages: [], warn: () => {} });
		expect(say({ kind: "messages", messages: structuredClone(ours) })).toBe("");
		const changed = structuredClone(ours);
		(changed[1] as { content: unknown[] }).content[1] = { type: "text", text: "new" };
		expect(JSON.parse(say({ kind: "messages", messages: changed })).messages).toEqual([
			piMessages[0],
			{ role: "assistant", content: [thinking, { type: "text", text: "new" }], api: "a", usage: { input: 1 }, timestamp: 2 },
			piMessages[2],
		]);
	});

	test("the session_start and before_agent_start answers name the events the loaded hooks handle; others do not", () => {
		const notes = { messages: [], warn: () => {}, handles: ["tool_call", "context"] };
		expect(JSON.parse(piBridge.answer("session_start", {}, { kind: "none" }, notes))).toEqual({ handles: ["context", "tool_call"] });
		expect(JSON.parse(piBridge.answer("before_agent_start", {}, { kind: "none" }, notes))).toEqual({ handles: ["context", "tool_call"] });
		expect(piBridge.answer("tool_call", {}, { kind: "none" }, notes)).toBe("");
	});
});
