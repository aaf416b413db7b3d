import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "pathe";

/**
 * The user's home directory. Reads `HOME` on every call (Bun's `os.homedir()` caches the value
 * seen at start-up), so tests and embedders can point it elsewhere at run time.
 */
export function homeDir(): string {
	return process.env.HOME || process.env.USERPROFILE || homedir();
}

/** Expands `~` and `~/x` against {@link homeDir}; any other path is returned unchanged. */
export function expandHome(path: string): string {
	if (path === "~") return homeDir();
	if (path.startsWith("~/")) return join(homeDir(), path.slice(2));
	return path;
}

/** Absolute paths as is, `~` home-expanded, anything else resolved against `cwd`. */
export function resolvePath(path: string, cwd: string): string {
	const expanded = expandHome(path);
	return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

/** The user-level agent directory, `~/.xcsh/agent`: user hooks, settings, trust store, sessions. */
export function userAgentDir(): string {
	return join(homeDir(), ".xcsh", "agent");
}
