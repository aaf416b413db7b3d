import { readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { ServerStatus } from "../src/socket/protocol.ts";
import { askStatus } from "../src/serve/status.ts";

/*
 * The hook server starts itself on an agent's first `xcsh-hooks bridge` call (src/socket/autostart.ts)
 * and lives on, detached, until 10 idle minutes pass. The suite keeps that on (it is what users get) and
 * stops, at each sandbox's cleanup, the servers started under that sandbox's HOME. They are found by
 * pid, never by name: the pid the socket reports (`serve --status` asks the same way) and the pid in the
 * start lock (a server started but not yet listening). A pid is stopped only while its working
 * directory is the sandbox's `~/.xcsh/agent` (where autostart starts it), so a reused pid is never hit.
 */

/** Where autostart puts the socket, the lock and the server's working directory under `home`. */
const agentDir = (home: string) => join(home, ".xcsh", "agent");

/** The status of the server on the sandbox's socket (what `serve --status --json` reports), or `undefined`. */
export function homeServerStatus(home: string): Promise<ServerStatus | undefined> {
	return askStatus(join(agentDir(home), "bridge.sock"));
}

/** Whether `pid` runs with the sandbox's agent folder as its working directory (an autostarted server of it). */
function ours(pid: number, home: string): boolean {
	try {
		return readlinkSync(`/proc/${pid}/cwd`) === agentDir(home);
	} catch {
		return false; // gone (or not ours to read)
	}
}

function lockPid(home: string): number | undefined {
	try {
		const pid = Number.parseInt(readFileSync(join(agentDir(home), "bridge.lock"), "utf8"), 10);
		return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

const signal = (pid: number, sig: NodeJS.Signals) => {
	try {
		process.kill(pid, sig);
	} catch {}
};

/** What {@link stopHomeServers} found. */
export interface Stopped {
	/** The servers' pids it stopped. */
	stopped: number[];
	/** Pids still running after SIGTERM and SIGKILL, or a socket that still answers. */
	left: string[];
}

/** Stops the hook servers started under `home`: SIGTERM, up to 5 s to exit, then SIGKILL; then checks none is left. */
export async function stopHomeServers(home: string): Promise<Stopped> {
	const status = await homeServerStatus(home);
	const pids = [...new Set([status?.pid, lockPid(home)].filter((pid): pid is number => pid !== undefined))].filter((pid) =>
		ours(pid, home),
	);
	for (const pid of pids) signal(pid, "SIGTERM");
	for (let i = 0; i < 50 && pids.some((pid) => ours(pid, home)); i++) await Bun.sleep(100);
	for (const pid of pids) if (ours(pid, home)) signal(pid, "SIGKILL");
	for (let i = 0; i < 20 && pids.some((pid) => ours(pid, home)); i++) await Bun.sleep(100);
	const left: string[] = pids.filter((pid) => ours(pid, home)).map((pid) => `pid ${pid}`);
	const after = await homeServerStatus(home);
	if (after) left.push(`a server (pid ${after.pid}) still answers on the socket`);
	return { stopped: pids, left };
}
