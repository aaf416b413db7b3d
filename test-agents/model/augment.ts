import { arr, callOf, FINAL_TEXT, type ModelApi, obj, type RecordedRequest, type SeenToolResult, type ToolStep } from "./types.ts";

/*
 * Augment's private API, the part Auggie 0.36.0 uses in a `--print` run (it has no bring-your-own-model
 * path, and takes its API's address from the session's `tenantURL`, which may be http://127.0.0.1):
 * `/get-models` names the model and the feature flags (hooks run only with `enable_hooks`), `/chat-stream`
 * answers one turn as JSON lines, `/agents/list-remote-tools` lists none, every other path gets `{}`. A tool call is a response node of type 5
 * (`tool_use: {tool_use_id, tool_name, input_json}`) with `stop_reason: 3`; the final text is a node of
 * type 0 with `stop_reason: 1`. Tool results come back as request nodes of type 1 (`tool_result_node`),
 * the current turn's in `nodes`, the earlier ones in `chat_history[].request_nodes`.
 */

/** The tool call for `step`, shaped after the tool Auggie offered (`tool_definitions[].input_schema_json`). */
function toolCall(step: ToolStep, tools: unknown[]): { name: string; args: Record<string, unknown> } {
	const offered = tools.map(obj);
	const names = offered.map((t) => String(t.name));
	const schemaOf = (name: string): unknown => {
		const schema = offered.find((t) => t.name === name)?.input_schema_json;
		try {
			return typeof schema === "string" ? JSON.parse(schema) : schema;
		} catch {
			return {};
		}
	};
	if (step.kind === "call") return callOf(step, names, schemaOf);
	if (step.kind === "shell") return { name: "launch-process", args: { command: step.command, wait: true, max_wait_seconds: 30 } };
	return { name: "view", args: { path: step.path } };
}

/** Every tool result of the conversation a `/chat-stream` body carries, oldest first. */
export function augmentToolResults(body: unknown): SeenToolResult[] {
	const b = obj(body);
	const nodes = [...arr(b.chat_history).flatMap((exchange) => arr(obj(exchange).request_nodes)), ...arr(b.nodes)];
	return nodes
		.map((node) => obj(obj(node).tool_result_node))
		.filter((r) => typeof r.tool_use_id === "string")
		.map((r) => ({ id: String(r.tool_use_id), text: String(r.content ?? ""), isError: r.is_error === true }));
}

/** One `/chat-stream` answer: a single JSON line. */
function line(value: Record<string, unknown>): Response {
	return new Response(`${JSON.stringify(value)}\n`, { headers: { "content-type": "application/json" } });
}

let counter = 0;

/** The model list with hooks on, as a tenant that enables them answers. */
export const AUGMENT_MODELS = {
	default_model: "mock-model",
	models: [{ name: "mock-model", internal_name: "mock-model", suggested_prefix_char_count: 0, suggested_suffix_char_count: 0 }],
	feature_flags: { enable_hooks: true },
};

/** Augment's API for Auggie (see above). */
export const augmentApi: ModelApi = {
	name: "augment",
	toolResults: augmentToolResults,
	handle(record: RecordedRequest, steps: readonly ToolStep[]): Response {
		if (record.path.endsWith("/get-models")) {
			record.kind = "side";
			return Response.json(AUGMENT_MODELS);
		}
		if (record.path.endsWith("/agents/list-remote-tools")) {
			record.kind = "side";
			return Response.json({ tools: [] });
		}
		if (!record.path.endsWith("/chat-stream")) {
			record.kind = "side";
			return Response.json({});
		}
		const body = obj(record.body);
		const tools = arr(body.tool_definitions);
		record.kind = tools.length > 0 ? "main" : "side";
		const turn = augmentToolResults(body).length;
		if (record.kind === "main") record.turn = turn;
		const step = record.kind === "main" ? steps[turn] : undefined;
		if (!step) return line({ text: FINAL_TEXT, nodes: [{ id: 0, type: 0, content: FINAL_TEXT }], stop_reason: 1 });
		const call = toolCall(step, tools);
		const tool_use = { tool_use_id: `toolu_${++counter}`, tool_name: call.name, input_json: JSON.stringify(call.args) };
		return line({ text: "", nodes: [{ id: 1, type: 5, tool_use }], stop_reason: 3 });
	},
};
