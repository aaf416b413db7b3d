import { expect, test } from "bun:test";
import { Check } from "@sinclair/typebox/value";
import { readFileSync } from "node:fs";
import { GENERATED } from "../../scripts/gen-checks.ts";
import { eventChecks } from "../../src/hooks/_event-checks.generated.ts";
import { resultChecks } from "../../src/hooks/_result-checks.generated.ts";
import { HookEventSchemas, HookResultSchemas } from "../../src/hooks/schemas.ts";

test("the generated checks are up to date with the schemas (run `bun run gen` after changing a schema)", () => {
	for (const [file, generate] of Object.entries(GENERATED)) expect([file, readFileSync(file, "utf8")]).toEqual([file, generate()]);
});

const samples: unknown[] = [
	null,
	[],
	"tool_call",
	{},
	{ type: "tool_call", toolName: "bash", toolCallId: "1", input: { command: "ls" } },
	{ type: "tool_call", toolName: "", toolCallId: "1", input: {} },
	{ type: "tool_call", toolName: "bash", toolCallId: "1", input: [] },
	{ type: "turn_start", turnIndex: 1, timestamp: 2 },
	{ type: "turn_start", turnIndex: 1.5, timestamp: 2 },
	{ type: "turn_start", turnIndex: -1, timestamp: 2 },
	{ type: "session_before_switch", reason: "fork" },
	{ type: "session_before_switch", reason: "later" },
	{
		type: "context",
		messages: [
			{ role: "user", content: "hi" },
			{ role: "custom", customType: "x", content: [], display: true },
		],
	},
	{ type: "context", messages: [{ role: "robot", content: "hi" }] },
	{
		type: "tool_result",
		toolName: "read",
		toolCallId: "1",
		input: {},
		content: [{ type: "text", text: "x" }],
		details: null,
		isError: false,
	},
	{ type: "tool_result", toolName: "read", toolCallId: "1", input: {}, content: [{ type: "image", data: "x" }], isError: false },
	{ type: "session_before_compact", preparation: {}, branchEntries: [], signal: new AbortController().signal },
	{ block: true, reason: "r" },
	{ block: "yes" },
	{ content: [{ type: "text", text: "x" }], details: 3 },
	{ cancel: true },
	{ messages: [{ role: "assistant", content: [{ type: "toolCall", id: "1", name: "bash", arguments: {} }] }] },
];

test("every generated check answers exactly as TypeBox's Check", () => {
	for (const [type, schema] of Object.entries(HookEventSchemas))
		for (const sample of samples) expect([type, eventChecks[type]?.(sample)]).toEqual([type, Check(schema, sample)]);
	for (const [type, schema] of Object.entries(HookResultSchemas))
		for (const sample of samples) expect([type, resultChecks[type]?.(sample)]).toEqual([type, Check(schema, sample)]);
});
