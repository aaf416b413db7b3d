import { ToolBlockedError, XcshError } from "../errors.ts";
import { writeSync } from "node:fs";
import { findAgent } from "../agents/index.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { type InProcessHandle, startInProcess } from "./runtime.ts";

/** What OpenCode and Kilo Code pass a plugin factory (the fields read here). */
export interface PluginInput {
	directory?: string;
	worktree?: string;
}

/** An OpenCode-style plugin: a factory resolving the hooks object. */
export type AgentPlugin = (input: PluginInput) => Promise<Record<string, unknown>>;

/** Handles started by plugins in this process, so tests (and `dispose`) can stop their watchers. */
const started = new Set<InProcessHandle>();

/** Stops every runtime started in this process (tests; an agent ends its process instead). */
export function closeInProcessPlugins(): void {
	for (const handle of started) handle.close();
	started.clear();
}

/**
 * The plugin factory for `agent` (a registry name with an in-process part). It never throws: an
 * agent that loads plugins skips one that throws at init and runs unguarded, so any failure here
 * becomes hooks that block every tool call with the reason instead.
 */
export function agentPlugin(agent: string): AgentPlugin {
	return async (input) => {
		const directory = input?.directory || input?.worktree || process.cwd();
		try {
			const part = findAgent(agent)?.inProcess?.();
			if (!part) throw new XcshError("UNKNOWN_NAME", `"${agent}" has no in-process plugin`);
			const handle = await startInProcess({ agent, directory });
			started.add(handle);
			return {
				...part.hooks(handle, { directory }),
				dispose: async () => {
					started.delete(handle);
					handle.close();
				},
			};
		} catch (error) {
			const reason = `xcsh-hooks could not start in ${agent} (fail closed): ${errorMessage(error)}`;
			try {
				writeSync(2, `xcsh-hooks: ${reason}\n`);
			} catch {}
			return {
				"tool.execute.before": async () => {
					throw new ToolBlockedError(reason);
				},
			};
		}
	};
}
