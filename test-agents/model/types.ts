/**
 * One step of a scripted model: the tool call it asks for on that turn. `call` names any other tool:
 * `pick` chooses among the names the client offered (`undefined`: none fits, the model then asks for
 * `label`, which the agent refuses), `args` gives the arguments from the chosen tool's JSON schema.
 */
export type ToolStep =
	| { kind: "shell"; command: string; description?: string }
	| { kind: "read"; path: string }
	| {
			kind: "call";
			label: string;
			pick(offered: readonly string[]): string | undefined;
			/** `prior`: the texts of the tool results so far in this conversation (an id a later call needs). */
			args(name: string, schema: unknown, prior: readonly string[]): Record<string, unknown>;
	  };

/** The name and arguments of a `call` step, given the offered tools and a schema lookup. */
export function callOf(
	step: Extract<ToolStep, { kind: "call" }>,
	offered: readonly string[],
	schemaOf: (name: string) => unknown,
	prior: readonly string[] = [],
): { name: string; args: Record<string, unknown> } {
	const name = step.pick(offered) ?? step.label;
	return { name, args: step.args(name, schemaOf(name), prior) };
}

/** A tool result as the model received it in a later request. */
export interface SeenToolResult {
	/** The call id the result answers (Gemini: the function name when no id is echoed). */
	id: string;
	/** The result as text (blocks joined, objects as JSON). */
	text: string;
	/** The client's error flag, where its API has one. */
	isError?: boolean;
}

/** One HTTP request the model server received. */
export interface RecordedRequest {
	method: string;
	path: string;
	search: string;
	headers: Record<string, string>;
	/** The parsed JSON body, or the raw text when it was not JSON. */
	body: unknown;
	/** How the server classified it. */
	kind: "main" | "side" | "count" | "other";
	/** Main turns only: the step index answered (steps.length = the final text turn). */
	turn?: number;
	/** Set on the turns of a subagent's conversation (answered from the subagent's script). */
	sub?: boolean;
}

/** A model API the server speaks. */
export interface ModelApi {
	/** Name shown in logs. */
	name: string;
	/** Answers one request; `record` is already filled in except `kind`/`turn`, which the handler sets. */
	handle(record: RecordedRequest, steps: readonly ToolStep[]): Response;
	/** The tool results carried in a main request's body. */
	toolResults(body: unknown): SeenToolResult[];
}

/** Text the scripted model ends every conversation with. */
export const FINAL_TEXT = "All done.";

/** Loose object access for request bodies, which are untyped JSON. */
export type Json = Record<string, unknown>;

/** `value` as an object, or `{}`. */
export function obj(value: unknown): Json {
	return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

/** `value` as an array, or `[]`. */
export function arr(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

/** One server-sent event in `event:`/`data:` form (`event` omitted when not given). */
export function sse(data: unknown, event?: string): string {
	return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

/** A streaming `text/event-stream` response holding `chunks`. */
export function sseResponse(chunks: string[]): Response {
	return new Response(chunks.join(""), {
		headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
	});
}

/** Picks the first of `candidates` that is among `offered`, else the first candidate. */
export function pickName(offered: readonly string[], candidates: readonly string[]): string {
	return candidates.find((c) => offered.includes(c)) ?? (candidates[0] as string);
}

/** The property of a JSON schema that holds a file path (`file_path`, `path`, `absolute_path`…). */
export function pathKey(schema: unknown): string {
	const props = Object.keys(obj(obj(schema).properties));
	return ["file_path", "absolute_path", "path", "filePath"].find((k) => props.includes(k)) ?? "file_path";
}

/**
 * Arguments for a tool that hands text to a subagent, from its JSON schema: the task-like property gets
 * `task`, a description a short title, an enum its first value, any other required property a sample.
 */
export function taskArgs(schema: unknown, task: string, known: Record<string, unknown> = {}): Record<string, unknown> {
	const s = obj(schema);
	const required = new Set(arr(s.required).map(String));
	const out: Record<string, unknown> = {};
	for (const [key, prop] of Object.entries(obj(s.properties))) {
		const p = obj(prop);
		if (key in known) out[key] = known[key];
		else if (/prompt|message|task|query|objective|instruction/i.test(key) && (p.type ?? "string") === "string") out[key] = task;
		else if (/description|title|name/i.test(key) && arr(p.enum).length === 0 && p.type === "string" && required.has(key))
			out[key] = "cleanup";
		else if (arr(p.enum).length > 0 && required.has(key)) out[key] = arr(p.enum)[0];
		else if (required.has(key))
			out[key] = p.type === "array" ? [] : p.type === "boolean" ? false : p.type === "number" || p.type === "integer" ? 1 : "cleanup";
	}
	return out;
}
