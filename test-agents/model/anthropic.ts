import {
	arr,
	callOf,
	FINAL_TEXT,
	type ModelApi,
	obj,
	pathKey,
	pickName,
	type RecordedRequest,
	type SeenToolResult,
	sse,
	sseResponse,
	type ToolStep,
} from "./types.ts";

/** Tool names for each step kind: Claude Code first, then GitHub Copilot CLI. */
const SHELL = ["Bash", "bash"];
const READ = ["Read", "view"];

/** The `tool_use` input for `step`, shaped after the tool the client offered. */
function toolCall(step: ToolStep, tools: unknown[]): { name: string; input: Record<string, unknown> } {
	const names = tools.map((t) => String(obj(t).name));
	const schemaOf = (name: string) => obj(tools.find((t) => obj(t).name === name)).input_schema;
	if (step.kind === "call") {
		const { name, args } = callOf(step, names, schemaOf);
		return { name, input: args };
	}
	if (step.kind === "shell")
		return { name: pickName(names, SHELL), input: { command: step.command, description: step.description ?? "run it" } };
	const name = pickName(names, READ);
	return { name, input: { [pathKey(schemaOf(name))]: step.path } };
}

/** Counts the tool results in the conversation: that is the index of the step to answer with. */
function countResults(body: unknown): number {
	return anthropicToolResults(body).length;
}

/** SSE for one assistant message with either a tool_use block or a text block. */
function stream(model: string, id: string, block: { name: string; input: unknown; id: string } | { text: string }): string[] {
	const usage = { input_tokens: 10, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
	const out = [
		sse(
			{
				type: "message_start",
				message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage },
			},
			"message_start",
		),
	];
	if ("text" in block) {
		out.push(sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"));
		out.push(sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: block.text } }, "content_block_delta"));
	} else {
		out.push(
			sse(
				{ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } },
				"content_block_start",
			),
		);
		out.push(
			sse(
				{ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } },
				"content_block_delta",
			),
		);
	}
	out.push(sse({ type: "content_block_stop", index: 0 }, "content_block_stop"));
	const stop = "text" in block ? "end_turn" : "tool_use";
	out.push(sse({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }, "message_delta"));
	out.push(sse({ type: "message_stop" }, "message_stop"));
	return out;
}

/** A non-streaming message (some side calls do not stream). */
function plain(model: string, id: string, text: string): Response {
	return Response.json({
		id,
		type: "message",
		role: "assistant",
		model,
		content: [{ type: "text", text }],
		stop_reason: "end_turn",
		stop_sequence: null,
		usage: { input_tokens: 10, output_tokens: 5 },
	});
}

/** The tool results in an Anthropic Messages request body. */
export function anthropicToolResults(body: unknown): SeenToolResult[] {
	const seen: SeenToolResult[] = [];
	for (const message of arr(obj(body).messages)) {
		for (const block of arr(obj(message).content)) {
			const b = obj(block);
			if (b.type !== "tool_result") continue;
			const text =
				typeof b.content === "string"
					? b.content
					: arr(b.content)
							.map((c) => String(obj(c).text ?? JSON.stringify(c)))
							.join("\n");
			seen.push({ id: String(b.tool_use_id), text, isError: b.is_error === true });
		}
	}
	return seen;
}

let counter = 0;

/** Anthropic Messages API (Claude Code, and Copilot CLI with `COPILOT_PROVIDER_TYPE=anthropic`). */
export const anthropicApi: ModelApi = {
	name: "anthropic",
	toolResults: anthropicToolResults,
	handle(record: RecordedRequest, steps: readonly ToolStep[]): Response {
		const body = obj(record.body);
		const model = String(body.model ?? "mock-model");
		const id = `msg_${++counter}`;
		if (record.path.endsWith("/count_tokens")) {
			record.kind = "count";
			return Response.json({ input_tokens: 42 });
		}
		if (!record.path.endsWith("/v1/messages")) {
			record.kind = "other";
			return Response.json({ type: "error", error: { type: "not_found_error", message: `mock: no ${record.path}` } }, { status: 404 });
		}
		const tools = arr(body.tools);
		if (tools.length === 0) {
			record.kind = "side";
			return body.stream ? sseResponse(stream(model, id, { text: "Mock title" })) : plain(model, id, "Mock title");
		}
		record.kind = "main";
		const turn = countResults(body);
		record.turn = turn;
		const step = steps[turn];
		if (!step) return body.stream ? sseResponse(stream(model, id, { text: FINAL_TEXT })) : plain(model, id, FINAL_TEXT);
		const call = toolCall(step, tools);
		return sseResponse(stream(model, id, { ...call, id: `toolu_${record.sub ? "sub" : ""}${turn + 1}` }));
	},
};
