import { lstatSync } from "node:fs";
import { markKnownFile } from "../_known-files.ts";
import type { Hook, HookLevel } from "../hooks-capability.ts";
import type { LoadResult, ProviderDefinition } from "../capability/registry.ts";
import { agentsWithOwnHooks } from "../../agents/index.ts";
import type { AgentDescriptor, AgentOwnHooks } from "../../agents/_shared/descriptor.ts";
import type { AgentHookEntry } from "../../agents/_shared/entry.ts";

/** The hook's path: `<settings file>#<key>`, e.g. `/p/.claude/settings.json#hooks.PreToolUse[0].hooks[0]`. */
export function agentHookPath(entry: AgentHookEntry): string {
	return `${entry.file}#${entry.key}`;
}

/** A short name for the entry: the program's base name (`guard.sh` for `"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`). */
function entryName(entry: AgentHookEntry): string {
	const first = entry.command.trim().split(/\s+/)[0] ?? entry.command;
	return (
		first
			.replace(/^["']|["']$/g, "")
			.split("/")
			.pop() || entry.command
	);
}

function toHook(entry: AgentHookEntry, level: HookLevel, provider: ProviderDefinition<Hook>): Hook {
	return markKnownFile({
		name: entryName(entry),
		path: agentHookPath(entry),
		type: entry.target === "tool_result" ? "post" : "pre",
		tool: entry.matcher || "*",
		level,
		_source: { provider: provider.id, providerName: provider.displayName, level },
		entry,
	});
}

/**
 * The discovery provider of one agent's own command hooks (its descriptor's `ownHooks`): most of its
 * files do not exist, so one lstat answers for each, and the reader (with the agent's tables behind it)
 * is loaded only for a file that does — every CLI start and agent call scans them all.
 */
export function agentConfigProvider(agent: AgentDescriptor & { ownHooks: AgentOwnHooks }): ProviderDefinition<Hook> {
	const own = agent.ownHooks;
	const provider: ProviderDefinition<Hook> = {
		id: own.providerId,
		displayName: own.displayName,
		description: own.description,
		priority: own.priority,
		load(ctx): LoadResult<Hook> {
			const items: Hook[] = [];
			const warnings: string[] = [];
			for (const { level, ...file } of own.places(ctx)) {
				if (lstatSync(file.file, { throwIfNoEntry: false }) === undefined) continue;
				const { readAgentConfig } = require("./read-config.ts") as typeof import("./read-config.ts");
				const read = readAgentConfig({ agent: agent.name, layout: own.layout, ...file });
				items.push(...read.entries.map((entry) => toHook(entry, level, provider)));
				warnings.push(...read.warnings);
			}
			return { items, warnings };
		},
		watch: (ctx) => ({ files: own.places(ctx).map((place) => place.file) }),
	};
	return provider;
}

/** The agent-config providers of every agent in the registry that has command hooks of its own, highest priority first. */
export function agentHookProviders(): ProviderDefinition<Hook>[] {
	return agentsWithOwnHooks()
		.map(agentConfigProvider)
		.sort((a, b) => b.priority - a.priority);
}
