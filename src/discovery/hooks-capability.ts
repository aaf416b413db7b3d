import { statSync } from "node:fs";
import type { AgentHookEntry } from "../agents/_shared/entry.ts";
import { isKnownFile } from "./_known-files.ts";
import type { CapabilityDefinition } from "./capability/registry.ts";

/** Which side of a tool call a hook runs on. */
export type HookType = "pre" | "post";

/** Where a hook was found: the user's own directories, or the project's (which need approval). */
export type HookLevel = "user" | "project";

/**
 * A discovered hook file.
 *
 * Naming rules, shared by every provider:
 * - `name` is the file's base name without its last extension (`bash.sh` → `bash`, `a.b.ts` → `a.b`).
 * - In `pre/` and `post/` folders `type` is the folder and `tool` is the same stem; a file named `*`
 *   or `*.<ext>` has `tool` `"*"`, i.e. every tool.
 * - Module files placed directly in a `hooks/` folder (e.g. `.xcsh/hooks/guard.ts`) register their own
 *   handlers when imported; they are listed as `type` `"pre"`, `tool` `"*"` so they sort with the
 *   tool-call hooks and never collide with a `pre/<tool>` script.
 * - Codex files `pre-<tool>.ts` / `post-<tool>.js` take `type` and `tool` from the name; any other
 *   name is `type` `"pre"`, `tool` `"*"`.
 */
export interface Hook {
	/** File base name without its last extension. */
	name: string;
	/** Absolute path as found in the directory (a symlink is not resolved). */
	path: string;
	type: HookType;
	/** Tool name the hook applies to; `"*"` = all tools. */
	tool: string;
	level: HookLevel;
	_source: { provider: string; providerName: string; level: HookLevel };
	/**
	 * An agent's command hook (Claude Code, Codex, Gemini CLI, Cursor config entry) instead of a file:
	 * `path` is then `<settings file>#<key>` and the entry says how it runs (src/agent-hooks).
	 */
	entry?: AgentHookEntry;
}

/** `${type}:${tool}:${name}` — two hooks with this key shadow each other (higher priority wins). */
export function hookKey(hook: Hook): string {
	// An agent entry is the same hook wherever it is written: the agent, its event, matcher and command.
	const { entry } = hook;
	if (entry)
		return `agent:${entry.agent}:${entry.event}:${entry.matcher || "*"}:${entry.args ? JSON.stringify([entry.command, ...entry.args]) : entry.command}`;
	return `${hook.type}:${hook.tool}:${hook.name}`;
}

/** `hook:${type}:${tool}:${name}` — what `disabledExtensions` lists to turn a hook off. */
export function hookExtensionId(hook: Hook): string {
	return `hook:${hookKey(hook)}`;
}

/** Error message when `hook.path` is not an existing file (symlinks followed), else `undefined`. */
export function validateHook(hook: Hook): string | undefined {
	if (isKnownFile(hook) || hook.entry) return undefined; // an agent entry was checked when its file was read
	try {
		const stats = statSync(hook.path, { throwIfNoEntry: false });
		if (!stats) return "file does not exist";
		return stats.isFile() ? undefined : "not a file";
	} catch (error) {
		return `cannot stat: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
	}
}

/** The `"hooks"` capability. Registered (with its providers) by importing `src/discovery`. */
export const hookCapability: CapabilityDefinition<Hook> = {
	id: "hooks",
	displayName: "hook",
	description: "Hook files: pre/post tool scripts and hook modules",
	key: hookKey,
	validate: validateHook,
	toExtensionId: hookExtensionId,
};
