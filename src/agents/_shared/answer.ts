/*
 * Small helpers the agent modules write their answers with. An empty answer object is written as
 * nothing at all (exit 0 with empty stdout is every agent's "no opinion" unless its module says otherwise).
 */

/** A JSON object answer as one line, or `""` for an empty one. */
export function answerJson(value: Record<string, unknown>): string {
	return Object.keys(value).length === 0 ? "" : JSON.stringify(value);
}

/** `{hookSpecificOutput: {hookEventName, ...fields}}`, the Claude-style event answer. */
export function specificOutput(hookEventName: string, fields: Record<string, unknown>): Record<string, unknown> {
	return { hookSpecificOutput: { hookEventName, ...fields } };
}

/** A string field of a payload, if it is one. */
export function stringField(payload: unknown, key: string): string | undefined {
	const value = (payload as Record<string, unknown> | null | undefined)?.[key];
	return typeof value === "string" ? value : undefined;
}

export { isRecord } from "../../json.ts";

/**
 * An ask where the agent cannot put it to the person (or would run the call on it): a deny whose
 * reason says a hook asked, so the model or the person still reads why (docs/ask.md).
 */
export function askAsDeny(reason: string, agentLabel: string): string {
	return `${nonEmpty(reason, "a hook asks for confirmation")} (a hook asks for confirmation, and ${agentLabel} cannot ask for it here, so the call is denied)`;
}

/**
 * The Claude-style answer to an approval prompt (Claude Code, Codex, Qwen Code `PermissionRequest`):
 * `hookSpecificOutput.decision.behavior`, with `message` the reason of a deny.
 */
export function permissionAnswer(behavior: "allow" | "deny", reason?: string): Record<string, unknown> {
	const decision = behavior === "deny" ? { behavior, message: nonEmpty(reason ?? "", "denied by an xcsh hook") } : { behavior };
	return specificOutput("PermissionRequest", { decision });
}

/** The agent's own suggestions in a permission payload field, when it is a list. */
export function suggestionsOf(value: unknown): unknown[] | undefined {
	return Array.isArray(value) ? value : undefined;
}

/** Reasons must never be empty: several agents read an empty deny reason as "allow" (docs/agents/codex.md#answers). */
export function nonEmpty(text: string, fallback: string): string {
	return text.trim() ? text : fallback;
}
