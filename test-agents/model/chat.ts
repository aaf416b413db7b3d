import {
	callOf,
	arr,
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

/** Tool names for each step kind: Qwen Code, Factory Droid, Cline, OpenCode/Kilo, pi, OpenClaw (their pages in docs/agents/). */
const SHELL = ["run_shell_command", "Execute", "run_commands", "bash", "exec"];
const READ = ["read_file", "Read", "read_files", "read"];

/** The offered function tools as `{name, parameters}`. */
const functions = (tools: unknown[]) =>
	tools.map((t) => obj(obj(t).function)).map((f) => ({ name: String(f.name), parameters: obj(f.parameters) }));

/** Required string fields the step does not fill (`description`, `summary`) get a short text. */
function fillRequired(parameters: Record<string, unknown>, args: Record<string, unknown>): Record<string, unknown> {
	const props = obj(parameters.properties);
	for (const key of arr(parameters.required).map(String))
		if (args[key] === undefined && obj(props[key]).type === "string") args[key] = "scripted step";
	return args;
}

/** The function call for `step`, shaped after the tool the client offered. */
function toolCall(step: ToolStep, tools: unknown[]): { name: string; args: Record<string, unknown> } {
	const offered = functions(tools);
	const names = offered.map((f) => f.name);
	if (step.kind === "call") return callOf(step, names, (n) => offered.find((f) => f.name === n)?.parameters ?? {});
	const name = pickName(names, step.kind === "shell" ? SHELL : READ);
	const parameters = offered.find((f) => f.name === name)?.parameters ?? {};
	if (step.kind === "shell") {
		const args = name === "run_commands" ? { commands: [step.command] } : { command: step.command };
		return { name, args: fillRequired(parameters, args) };
	}
	if (name === "read_files") return { name, args: { files: [{ path: step.path }] } };
	return { name, args: fillRequired(parameters, { [pathKey(parameters)]: step.path }) };
}

/** The text of a message's content (a string or content parts). */
function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	return arr(content)
		.map((part) => String(obj(part).text ?? ""))
		.join("\n");
}

/** The tool results in a Chat Completions request (`role: "tool"` messages). */
export function chatToolResults(body: unknown): SeenToolResult[] {
	return arr(obj(body).messages)
		.map(obj)
		.filter((m) => m.role === "tool")
		.map((m) => ({ id: String(m.tool_call_id), text: contentText(m.content) }));
}

let counter = 0;

/** One streamed (or plain) completion holding a tool call or the final text. */
function completion(stream: boolean, call: { name: string; args: Record<string, unknown>; id: string } | undefined): Response {
	const id = `chatcmpl-${++counter}`;
	const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: "mock-model" };
	const toolCalls = call
		? [{ index: 0, id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }]
		: undefined;
	const finish = call ? "tool_calls" : "stop";
	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
	if (!stream) {
		const message = call ? { role: "assistant", content: null, tool_calls: toolCalls } : { role: "assistant", content: FINAL_TEXT };
		return Response.json({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage });
	}
	const delta = call ? { role: "assistant", content: null, tool_calls: toolCalls } : { role: "assistant", content: FINAL_TEXT };
	return sseResponse([
		sse({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }),
		sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage }),
		"data: [DONE]\n\n",
	]);
}

/** OpenAI Chat Completions (`POST <base>/chat/completions`, streamed or not): Qwen Code, Factory Droid, Cline. */
export const chatApi: ModelApi = {
	name: "chat-completions",
	toolResults: chatToolResults,
	handle(record: RecordedRequest, steps: readonly ToolStep[]): Response {
		if (record.method === "GET" && record.path.endsWith("/models")) {
			record.kind = "side";
			return Response.json({ object: "list", data: [{ id: "mock-model", object: "model" }] });
		}
		if (!record.path.endsWith("/chat/completions") || record.method !== "POST") {
			record.kind = "other";
			return Response.json({ error: { message: `mock: no ${record.method} ${record.path}` } }, { status: 404 });
		}
		const body = obj(record.body);
		const tools = arr(body.tools);
		record.kind = tools.length > 0 ? "main" : "side";
		const turn = chatToolResults(body).length;
		if (record.kind === "main") record.turn = turn;
		const step = record.kind === "main" ? steps[turn] : undefined;
		const call = step ? { ...toolCall(step, tools), id: `call_${record.sub ? "sub" : ""}${turn + 1}` } : undefined;
		return completion(body.stream === true, call);
	},
};
