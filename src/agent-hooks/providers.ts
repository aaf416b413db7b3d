import { lstatSync } from "node:fs";
import { join } from "pathe";
import { markKnownFile } from "../discovery/_known-files.ts";
import type { Hook, HookLevel } from "../discovery/hooks-capability.ts";
import type { LoadContext, LoadResult, ProviderDefinition } from "../capability/registry.ts";
import { AGENT_CONFIG_PROVIDER } from "./provider-ids.ts";
import type { AgentConfigFile } from "./read-config.ts";
import type { AgentHookEntry, AgentId } from "../agents/_shared/entry.ts";

// One provider per agent below, each the same call with that agent's files: the repetition is the
// data (which files, which level), deliberately spelled out so each agent reads on its own.

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

type FileOf = (ctx: LoadContext) => Array<{ level: HookLevel } & Omit<AgentConfigFile, "agent" | "layout">>;

function agentProvider(agent: AgentId, layout: AgentConfigFile["layout"], meta: Omit<ProviderDefinition<Hook>, "load">, files: FileOf) {
	const provider: ProviderDefinition<Hook> = {
		...meta,
		load(ctx): LoadResult<Hook> {
			const items: Hook[] = [];
			const warnings: string[] = [];
			for (const { level, ...file } of files(ctx)) {
				// Most of these files do not exist: one lstat answers, and the reader (with the agents' tables
				// behind it) is loaded only for a file that does — every CLI start and agent call scans them all.
				if (lstatSync(file.file, { throwIfNoEntry: false }) === undefined) continue;
				const { readAgentConfig } = require("./read-config.ts") as typeof import("./read-config.ts");
				const read = readAgentConfig({ agent, layout, ...file });
				items.push(...read.entries.map((entry) => toHook(entry, level, provider)));
				warnings.push(...read.warnings);
			}
			return { items, warnings };
		},
		watch: (ctx) => ({ files: files(ctx).map((f) => f.file) }),
	};
	return provider;
}

/** Claude Code's command hooks: `.claude/settings.local.json`, `.claude/settings.json` (project), `~/.claude/settings.json`. */
export const claudeSettingsProvider = agentProvider(
	"claude",
	"grouped",
	{
		id: AGENT_CONFIG_PROVIDER.claude,
		displayName: "Claude Code settings",
		description: "Command hooks in .claude/settings(.local).json and ~/.claude/settings.json",
		priority: 60,
	},
	({ cwd, home }) => [
		{ level: "project", file: join(cwd, ".claude", "settings.local.json"), projectDir: cwd },
		{ level: "project", file: join(cwd, ".claude", "settings.json"), projectDir: cwd },
		{ level: "user", file: join(home, ".claude", "settings.json") },
	],
);

/** Codex's command hooks: `.codex/hooks.json` (project), `~/.codex/hooks.json`. */
export const codexHooksProvider = agentProvider(
	"codex",
	"grouped",
	{
		id: AGENT_CONFIG_PROVIDER.codex,
		displayName: "Codex hooks.json",
		description: "Command hooks in .codex/hooks.json and ~/.codex/hooks.json",
		priority: 55,
	},
	({ cwd, home }) => [
		{ level: "project", file: join(cwd, ".codex", "hooks.json"), projectDir: cwd },
		{ level: "user", file: join(home, ".codex", "hooks.json") },
	],
);

/** Gemini CLI's command hooks: `.gemini/settings.json` (project), `~/.gemini/settings.json`. */
export const geminiSettingsProvider = agentProvider(
	"gemini",
	"grouped",
	{
		id: AGENT_CONFIG_PROVIDER.gemini,
		displayName: "Gemini CLI settings",
		description: "Command hooks in .gemini/settings.json and ~/.gemini/settings.json",
		priority: 50,
	},
	({ cwd, home }) => [
		{ level: "project", file: join(cwd, ".gemini", "settings.json"), projectDir: cwd },
		{ level: "user", file: join(home, ".gemini", "settings.json") },
	],
);

/** Cursor's command hooks: `.cursor/hooks.json` (project, run from the project), `~/.cursor/hooks.json` (run from `~/.cursor`). */
export const cursorHooksProvider = agentProvider(
	"cursor",
	"flat",
	{
		id: AGENT_CONFIG_PROVIDER.cursor,
		displayName: "Cursor hooks.json",
		description: "Command hooks in .cursor/hooks.json and ~/.cursor/hooks.json",
		priority: 45,
	},
	({ cwd, home }) => [
		{ level: "project", file: join(cwd, ".cursor", "hooks.json"), projectDir: cwd },
		{ level: "user", file: join(home, ".cursor", "hooks.json"), runDir: join(home, ".cursor") },
	],
);

/** The four agent-config providers, highest priority first. */
export const agentHookProviders = [claudeSettingsProvider, codexHooksProvider, geminiSettingsProvider, cursorHooksProvider] as const;
