import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Checks } from "./checks.ts";
import { type Stopped, stopHomeServers } from "./servers.ts";

/** A private run folder: `home/` (HOME and the XDG dirs), `proj/` (the project), `logs/`. */
export interface Sandbox {
	root: string;
	home: string;
	proj: string;
	/** The folder the agent is started in: `proj`, unless a case starts it in a subfolder of the project. */
	cwd: string;
	logs: string;
	/** Writes files (path relative to `root` → content); `*.sh` files become executable. */
	write(files: Record<string, string>): void;
	/**
	 * A folder put first on PATH instead of the one holding the executable under test: the README case puts
	 * the `~/.local/bin` the README's commands filled there, as the user's login shell would.
	 */
	pathFirst?: string;
	/** The base environment for any process of this run: nothing from ours but PATH and locale. */
	env(extra?: Record<string, string>): Record<string, string>;
	/**
	 * Stops the hook servers the agent's `bridge` calls started under `home` (auto-start stays on in the
	 * runs), by pid (servers.ts); with `checks`, records that none is left running.
	 */
	stopServers(checks?: Checks): Promise<Stopped>;
	/** Stops the hook servers as {@link stopServers} does, then removes the folder (unless `keep`). */
	dispose(keep: boolean): Promise<Stopped>;
}

/** PATH for agents and hooks: this Bun first (hooks may be `bun x.ts`), then node and the system. */
const PATH = [dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");

/**
 * The folder holding `xcsh-hooks` (a link to the executable under test), first on every agent's PATH:
 * on a user's machine it is on PATH (the README puts it there), and a project's entries name it there.
 */
let xcshBin: string | undefined;

/** Puts `exe` on the agents' PATH as `xcsh-hooks` for this run; returns the function that removes it. */
export function putOnPath(exe: string): () => void {
	const dir = mkdtempSync(join(tmpdir(), "xcsh-agents-bin-"));
	symlinkSync(exe, join(dir, "xcsh-hooks"));
	xcshBin = dir;
	return () => {
		xcshBin = undefined;
		rmSync(dir, { recursive: true, force: true });
	};
}

/** Creates a fresh sandbox under the OS temp dir. */
export function createSandbox(label: string): Sandbox {
	const root = mkdtempSync(join(tmpdir(), `xcsh-agents-${label}-`));
	const home = join(root, "home");
	const proj = join(root, "proj");
	const logs = join(root, "logs");
	for (const dir of [home, proj, logs, join(home, ".config"), join(home, ".cache"), join(home, ".local", "share"), join(root, "tmp")]) {
		mkdirSync(dir, { recursive: true });
	}
	return {
		root,
		home,
		proj,
		cwd: proj,
		logs,
		write(files) {
			for (const [path, content] of Object.entries(files)) {
				const full = join(root, path);
				mkdirSync(dirname(full), { recursive: true });
				writeFileSync(full, content);
				if (full.endsWith(".sh")) chmodSync(full, 0o755);
			}
		},
		env(extra = {}) {
			const first = this.pathFirst ?? xcshBin;
			return {
				PATH: first === undefined ? PATH : `${first}:${PATH}`,
				HOME: home,
				USERPROFILE: home,
				XDG_CONFIG_HOME: join(home, ".config"),
				XDG_CACHE_HOME: join(home, ".cache"),
				XDG_DATA_HOME: join(home, ".local", "share"),
				XDG_STATE_HOME: join(home, ".local", "state"),
				TMPDIR: join(root, "tmp"),
				LANG: "C.UTF-8",
				TERM: "dumb",
				NO_COLOR: "1",
				CI: "1",
				// Only loopback: no proxy may carry a request elsewhere, and loopback never goes through one.
				NO_PROXY: "127.0.0.1,localhost,::1",
				no_proxy: "127.0.0.1,localhost,::1",
				...extra,
			};
		},
		async stopServers(checks) {
			const result = await stopHomeServers(home);
			const { stopped, left } = result;
			checks?.expect(`no hook server left running under the sandbox HOME (${stopped.length} stopped)`, left.length === 0, left.join("; "));
			return result;
		},
		async dispose(keep) {
			const result = await this.stopServers();
			if (!keep) rmSync(root, { recursive: true, force: true });
			return result;
		},
	};
}
