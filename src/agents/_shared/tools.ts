/*
 * Tool names and inputs both ways (docs/contract.md#bridges). Hooks see the built-in names and fields (`bash
 * {command}`, `read {path, offset?, limit?}`, `write {path, content}`, `edit {path, oldText,
 * newText}`) whatever agent called them; a rewritten input goes back as the agent's whole input,
 * in its own field names, with the agent's other fields (`description`, `replace_all`…) kept.
 */

/** The built-in tools agents' tools map to. */
export type BuiltinName = "bash" | "read" | "write" | "edit";

/** How one agent tool maps to a built-in tool: our field → the agent's field. */
export interface ToolRule {
	agent: string;
	ours: BuiltinName;
	fields: Record<string, string>;
}

/** Fields each built-in tool needs as strings; a call missing one keeps its own name and input. */
const REQUIRED: Record<BuiltinName, string[]> = {
	bash: ["command"],
	read: ["path"],
	write: ["path", "content"],
	edit: ["path", "oldText", "newText"],
};

/** `agent` → `bash {command}`. */
export const shellRule = (agent: string): ToolRule => ({ agent, ours: "bash", fields: { command: "command" } });

/** Claude Code's file tools (`file_path`, `old_string`…); Gemini's and Cursor's use the same fields. */
export function fileRules(names: { read: string; write: string; edit?: string }, readRange = false): ToolRule[] {
	const rules: ToolRule[] = [
		{
			agent: names.read,
			ours: "read",
			fields: readRange ? { path: "file_path", offset: "offset", limit: "limit" } : { path: "file_path" },
		},
		{ agent: names.write, ours: "write", fields: { path: "file_path", content: "content" } },
	];
	if (names.edit)
		rules.push({ agent: names.edit, ours: "edit", fields: { path: "file_path", oldText: "old_string", newText: "new_string" } });
	return rules;
}

/** A tool call as hooks see it, and the rule that mapped it (none: the agent's own name and input). */
export interface MappedTool {
	toolName: string;
	input: Record<string, unknown>;
	rule?: ToolRule;
}

/** The built-in name and input for an agent's tool call, or the call unchanged when no rule fits. */
export function toBuiltin(rules: readonly ToolRule[], name: string, input: Record<string, unknown>): MappedTool {
	const rule = rules.find((r) => r.agent === name);
	if (!rule) return { toolName: name, input };
	const ours: Record<string, unknown> = {};
	for (const [field, agentField] of Object.entries(rule.fields)) if (input[agentField] !== undefined) ours[field] = input[agentField];
	if (REQUIRED[rule.ours].some((field) => typeof ours[field] !== "string")) return { toolName: name, input };
	return { toolName: rule.ours, input: ours, rule };
}

/**
 * The agent's whole input for a hook's rewritten input: the fields the rule maps come from the hook
 * (one it left out is dropped), renamed to the agent's names; every other field of the original is kept.
 * Fields the hook added that the rule does not name keep their names. Without a rule the hook's input
 * is already in the agent's terms.
 */
export function toAgentInput(
	mapped: MappedTool,
	original: Record<string, unknown>,
	rewritten: Record<string, unknown>,
): Record<string, unknown> {
	const { rule } = mapped;
	if (!rule) return { ...rewritten };
	const agentFields = new Set(Object.values(rule.fields));
	const result: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(original)) if (!agentFields.has(key)) setOwn(result, key, value);
	for (const [key, value] of Object.entries(rewritten)) setOwn(result, rule.fields[key] ?? key, value);
	return result;
}

/**
 * `target[key] = value` as a plain own property, whatever the key: an assignment to `__proto__` (an
 * own key of any JSON the model or a hook wrote) would set the object's prototype instead, so the tool
 * would inherit fields no hook saw as its input.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
