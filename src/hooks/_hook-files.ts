/*
 * The files this process imported as hook modules (as the loader named them: a path, or an approved
 * module's path with the query it was served under). Inside an agent that loaded our plugin, an exit
 * called from a frame of one of them is a hook's (see src/process/agent-exit-guard.ts); recorded before
 * the import, so a module's top level is covered too. A few strings per hook, kept for the process.
 */

/** Paths (without a query) of every hook module this process imported or began to import. */
export const importedHookFiles = new Set<string>();

/** Records the module `specifier` (its query dropped) and `resolvedPath` as hook files. */
export function recordHookFile(specifier: string, resolvedPath: string): void {
	importedHookFiles.add(resolvedPath);
	const query = specifier.indexOf("?");
	importedHookFiles.add(query < 0 ? specifier : specifier.slice(0, query));
}
