import { loadHookFromFactory } from "../../hooks/loader.ts";
import type { LoadHooksResult } from "../../hooks/types.ts";
import { coveredPaths } from "./approval.ts";
import { createAgentHookFactory } from "./factory.ts";
import type { AgentHookEntry } from "../../agents/_shared/entry.ts";

/** One entry to load: its hook path, the entry, and (project entries) the approved content hash. */
export interface AgentHookToLoad {
	path: string;
	entry: AgentHookEntry;
	approved?: string | undefined;
}

/**
 * Loads agent entries as hooks, in order; `resolvedPath` is the entry's path (`<settings file>#<key>`).
 * Loading only wires a handler, so the only failure is a factory error, reported like any load error.
 */
export async function loadAgentHooks(
	entries: AgentHookToLoad[],
	cwd: string,
	options: { maxTimeoutMs?: number } = {},
): Promise<LoadHooksResult> {
	const result: LoadHooksResult = { hooks: [], errors: [] };
	for (const { path, entry, approved } of entries) {
		try {
			const factory = createAgentHookFactory(entry, { path, approved, maxTimeoutMs: options.maxTimeoutMs });
			const hook = await loadHookFromFactory(factory, path, cwd, path);
			hook.watchFiles = () => coveredPaths(entry);
			result.hooks.push(hook);
		} catch (error) {
			result.errors.push({ path, error: `Failed to load hook: ${(error as Error).message}` });
		}
	}
	return result;
}
