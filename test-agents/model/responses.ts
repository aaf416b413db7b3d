import {
	arr,
	callOf,
	FINAL_TEXT,
	type ModelApi,
	obj,
	type RecordedRequest,
	type SeenToolResult,
	sse,
	sseResponse,
	type ToolStep,
} from "./types.ts";

/** A tool name the client offered → the arguments it takes for a shell command. */
const SHELL_TOOLS: Record<string, (command: string) => Record<string, unknown>> = {
	exec_command: (command) => ({ cmd: command }),
	shell_command: (command) => ({ command }),
	shell: (command) => ({ command: ["bash", "-lc", command] }),
};

/** The tool results in a Responses API request body (`function_call_output` items). */
export function responsesToolResults(body: unknown): SeenToolResult[] {
	return arr(obj(body).input)
		.map(obj)
		.filter((item) => item.type === "function_call_output")
		.map((item) => ({
			id: String(item.call_id),
			text:
				typeof item.output === "string"
					? item.output
					: arr(item.output)
							.map((c) => String(obj(c).text ?? ""))
							.join("\n"),
		}));
}

/** The function call item for `step` (Codex has no file-read tool: a read is `cat`). */
function functionCall(step: ToolStep, tools: unknown[], callId: string, prior: readonly string[]): Record<string, unknown> {
	const names = tools.map((t) => String(obj(t).name));
	if (step.kind === "call") {
		// Codex groups MCP and multi-agent tools in `{type: "namespace", name, tools}`; a call names both.
		const flat = tools.flatMap((t) => {
			const tool = obj(t);
			if (tool.type !== "namespace") return [{ name: String(tool.name), tool, namespace: undefined as string | undefined }];
			return arr(tool.tools).map((inner) => ({ name: String(obj(inner).name), tool: obj(inner), namespace: String(tool.name) }));
		});
		const offered = flat.map((f) => (f.namespace ? `${f.namespace}.${f.name}` : f.name));
		const picked = step.pick([...offered, ...flat.map((f) => f.name)]) ?? step.label;
		const found = flat.find((f) => f.name === picked || `${f.namespace}.${f.name}` === picked);
		const call = callOf({ ...step, pick: () => found?.name ?? picked }, offered, () => found?.tool.parameters, prior);
		return {
			type: "function_call",
			id: `fc_${callId}`,
			status: "completed",
			name: call.name,
			...(found?.namespace ? { namespace: found.namespace } : {}),
			arguments: JSON.stringify(call.args),
			call_id: callId,
		};
	}
	const name = Object.keys(SHELL_TOOLS).find((n) => names.includes(n)) ?? "exec_command";
	const command = step.kind === "shell" ? step.command : `cat '${step.path}'`;
	const args = (SHELL_TOOLS[name] as (c: string) => Record<string, unknown>)(command);
	return { type: "function_call", id: `fc_${callId}`, status: "completed", name, arguments: JSON.stringify(args), call_id: callId };
}

let counter = 0;

/** The SSE events of one response holding a single output item. */
function events(item: Record<string, unknown>): string[] {
	const id = `resp_${++counter}`;
	const base = {
		id,
		object: "response",
		created_at: Math.floor(Date.now() / 1000),
		model: "mock-model",
		status: "in_progress",
		output: [],
	};
	const out = [sse({ type: "response.created", sequence_number: 0, response: base }, "response.created")];
	out.push(sse({ type: "response.output_item.added", sequence_number: 1, output_index: 0, item }, "response.output_item.added"));
	if (item.type === "message") {
		const text = String(obj(arr(item.content)[0]).text);
		out.push(
			sse(
				{ type: "response.output_text.delta", sequence_number: 2, item_id: item.id, output_index: 0, content_index: 0, delta: text },
				"response.output_text.delta",
			),
		);
	}
	out.push(sse({ type: "response.output_item.done", sequence_number: 3, output_index: 0, item }, "response.output_item.done"));
	const usage = {
		input_tokens: 10,
		input_tokens_details: { cached_tokens: 0 },
		output_tokens: 5,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: 15,
	};
	out.push(
		sse(
			{ type: "response.completed", sequence_number: 4, response: { ...base, status: "completed", output: [item], usage } },
			"response.completed",
		),
	);
	return out;
}

/** OpenAI Responses API (Codex CLI: `POST <base_url>/responses`, streamed). */
export const responsesApi: ModelApi = {
	name: "responses",
	toolResults: responsesToolResults,
	handle(record: RecordedRequest, steps: readonly ToolStep[]): Response {
		if (!record.path.endsWith("/responses") || record.method !== "POST") {
			record.kind = "other";
			return Response.json({ error: { message: `mock: no ${record.method} ${record.path}` } }, { status: 404 });
		}
		const body = obj(record.body);
		const tools = arr(body.tools);
		record.kind = tools.length > 0 ? "main" : "side";
		const turn = responsesToolResults(body).length;
		const step = record.kind === "main" ? steps[turn] : undefined;
		if (record.kind === "main") record.turn = turn;
		const item = step
			? functionCall(
					step,
					tools,
					`call_${record.sub ? "sub" : ""}${turn + 1}`,
					responsesToolResults(body).map((r) => r.text),
				)
			: {
					type: "message",
					id: `msg_${counter + 1}`,
					status: "completed",
					role: "assistant",
					content: [{ type: "output_text", text: FINAL_TEXT, annotations: [] }],
				};
		return sseResponse(events(item));
	},
};
