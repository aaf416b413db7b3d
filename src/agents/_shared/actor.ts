import type { HookSubagent } from "../../hooks/types.ts";
import { isRecord, stringField } from "./answer.ts";
import type { AgentSubagentEvent, McpTool, Payload } from "./bridge-types.ts";

/*
 * Who acts and through what, read from a payload: the subagent fields an agent sends inside a
 * subagent, and the MCP server and tool behind a tool name. Each agent module says which fields and
 * which name form are its own; these helpers only read them.
 */

/** The payload fields an agent names its subagent with, first match wins. */
export interface SubagentFields {
	id: string[];
	type?: string[];
	parentId?: string[];
}

const first = (payload: Payload, keys: string[] | undefined): string | undefined => {
	for (const key of keys ?? []) {
		const value = stringField(payload, key);
		if (value) return value;
	}
	return undefined;
};

/** The subagent a payload names with `fields`, or `undefined` when it names none (the main agent). */
export function subagentOf(payload: Payload, fields: SubagentFields): HookSubagent | undefined {
	const id = first(payload, fields.id);
	if (!id) return undefined;
	const subagent: HookSubagent = { id };
	const type = first(payload, fields.type);
	if (type) subagent.type = type;
	const parentId = first(payload, fields.parentId);
	if (parentId) subagent.parentId = parentId;
	return subagent;
}

/**
 * `<prefix><server><sep><tool>` split at the first `sep` after the prefix (Claude/Codex `mcp__s__t`,
 * Gemini `mcp_s_t`); `undefined` unless both parts are non-empty.
 */
export function splitPrefixed(name: string, prefix: string, sep: string): McpTool | undefined {
	if (!name.startsWith(prefix)) return undefined;
	const rest = name.slice(prefix.length);
	const at = rest.indexOf(sep);
	if (at <= 0 || at + sep.length >= rest.length) return undefined;
	return { server: rest.slice(0, at), tool: rest.slice(at + sep.length) };
}

/**
 * `<server><sep><tool>` where only the server may contain `sep` (Copilot `github-mcp-server-get_me`):
 * split at the last `sep`.
 */
export function splitLast(name: string, sep: string): McpTool | undefined {
	const at = name.lastIndexOf(sep);
	if (at <= 0 || at + sep.length >= name.length) return undefined;
	return { server: name.slice(0, at), tool: name.slice(at + sep.length) };
}

/**
 * An MCP tool whose server the payload names in a field of its own (Claude `mcp_server`, Gemini
 * `mcp_context.server_name`): the tool is what is left of `name` after the agent's prefix for that server.
 */
export function withServer(name: string, server: string | undefined, prefixes: string[]): McpTool | undefined {
	if (!server) return undefined;
	for (const prefix of prefixes)
		if (name.startsWith(prefix) && name.length > prefix.length) return { server, tool: name.slice(prefix.length) };
	return undefined;
}

/** The subagent of a Claude-style SubagentStart/SubagentStop payload (`last_assistant_message`, `agent_transcript_path`). */
export function claudeStyleSubagentEvent(payload: Payload, subagent: HookSubagent | undefined): AgentSubagentEvent | undefined {
	if (!subagent) return undefined;
	return {
		subagent,
		lastMessage: stringField(payload, "last_assistant_message"),
		transcriptPath: stringField(payload, "agent_transcript_path"),
	};
}

/** A string field of an object field (`mcp_context.server_name`). */
export function nestedString(payload: Payload, key: string, inner: string): string | undefined {
	const value = payload[key];
	return isRecord(value) ? stringField(value, inner) : undefined;
}

/** Our one spelling of an MCP tool, whatever the agent: `mcp__<server>__<tool>`. */
export const canonicalMcpName = (mcp: McpTool): string => `mcp__${mcp.server}__${mcp.tool}`;
