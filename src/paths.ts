import { isAbsolute, join, resolve } from "pathe";

/**
 * The user's home directory. Reads `HOME` on every call (Bun's `os.homedir()` caches the value
 * seen at start-up), so tests and embedders can point it elsewhere at run time.
 */
export function homeDir(): string {
	// node:os only when neither variable is set: this module is on the path of every start-up.
	return process.env.HOME || process.env.USERPROFILE || (require("node:os") as typeof import("node:os")).homedir();
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

/**
 * The socket `serve --socket` listens on and `bridge` calls look for first: `~/.xcsh/agent/bridge.sock`.
 * One fixed place per user, so the entries `install` wrote use a running server with no setting.
 */
export function bridgeSocketPath(): string {
	// Joined by hand: this runs on the forwarding client's path, where pathe's first call costs ≈0.4 ms.
	return `${homeDir().replace(/\/+$/, "")}/.xcsh/agent/bridge.sock`;
}
