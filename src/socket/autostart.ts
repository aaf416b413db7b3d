import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { homeDir } from "../paths.ts";
import { answering } from "./protocol.ts";

/*
 * The hook server starts itself (docs/serve.md#it-starts-itself): a `bridge <agent>` call that finds no live
 * `serve --socket` starts one, detached, and answers its own call here as before; the calls after it
 * are served. Only on that cold path is this module loaded.
 *
 * One start at a time, however many calls arrive at once: the starter takes `bridge.lock` next to the
 * socket with O_EXCL and writes the server's pid into it; the server removes it once it listens (or
 * fails to). A
 * lock whose pid is gone, or older than {@link STALE_LOCK_MS} (a start takes well under that; a pid
 * may have been reused), is stale: it is renamed aside — one caller wins the rename — checked to still
 * be the lock that was read, and the start retried once. Even two starters would leave one server:
 * only one can listen on the socket, the other says so in the log and exits.
 *
 * Off with `"server": false` in the user's settings (`~/.xcsh/agent/settings.json`; a project's
 * settings cannot change it) or `XCSH_HOOKS_SERVER=off` in the environment. The server gets a fixed,
 * minimal environment ({@link serverEnvironment}), never the calling agent's; its output goes to
 * `~/.xcsh/agent/server.log`.
 */

/** A lock older than this is stale, whatever its pid. */
const STALE_LOCK_MS = 30_000;
/** The log is started afresh past this size. */
const MAX_LOG_BYTES = 1024 * 1024;
/** Minutes without a call before an auto-started server exits. */
export const DEFAULT_IDLE_EXIT_MINUTES = 10;

/** The user agent folder, joined by hand (see paths.ts). */
function agentDir(): string {
	return `${homeDir().replace(/\/+$/, "")}/.xcsh/agent`;
}

/** The start lock's path. */
export function startLockPath(): string {
	return `${agentDir()}/bridge.lock`;
}

/** The auto-started server's log. */
export function serverLogPath(): string {
	return `${agentDir()}/server.log`;
}

/** What the user's settings and the environment say about starting a server. */
export interface AutostartSettings {
	enabled: boolean;
	idleExitMinutes: number;
}

/**
 * `server` (default true) and `serverIdleMinutes` (default 10, 0: never) from the user's settings
 * alone; `XCSH_HOOKS_SERVER=off` (or `0`, `false`) turns it off too. A key of the wrong type is
 * ignored here (the local run warns about it).
 */
export function autostartSettings(): AutostartSettings {
	const off = ["off", "0", "false"].includes((process.env.XCSH_HOOKS_SERVER ?? "").toLowerCase());
	const user = userSettings();
	const idle = user.serverIdleMinutes;
	return {
		enabled: !off && user.server !== false,
		idleExitMinutes: typeof idle === "number" && Number.isFinite(idle) && idle >= 0 ? idle : DEFAULT_IDLE_EXIT_MINUTES,
	};
}

/** The settings file as {@link serverTurnedOff} last read it: its identity, and what it said. */
let lastRead: { key: string; off: boolean } | undefined;
/** How old a file's last change must be before its identity stands for its content (timestamps are coarse). */
const SETTLED_MS = 2000;

/**
 * Whether the user's settings say `"server": false` now (what a running server asks before each call).
 * The file is read again only when its identity (device, inode, size, change and modification times)
 * differs from the last read's: a stat instead of a read and a parse on every call. An identity is
 * trusted only once the file's last change is {@link SETTLED_MS} old, since a file system's timestamps
 * are coarse (a write within the same tick, of the same length, would keep them).
 */
export function serverTurnedOff(): boolean {
	let info: ReturnType<typeof statSync>;
	try {
		info = statSync(`${agentDir()}/settings.json`, { throwIfNoEntry: false });
	} catch {
		info = undefined; // not to be looked at: not to be read either, the defaults
	}
	if (info === undefined) {
		lastRead = undefined;
		return false; // no settings: the defaults
	}
	const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
	if (lastRead?.key === key) return lastRead.off;
	const off = userSettings().server === false;
	lastRead = Date.now() - Math.max(info.mtimeMs, info.ctimeMs) > SETTLED_MS ? { key, off } : undefined;
	return off;
}

/** The user's settings object; empty when there are none (or broken ones: the defaults). */
function userSettings(): Record<string, unknown> {
	try {
		const parsed = JSON.parse(readFileSync(`${agentDir()}/settings.json`, "utf8")) as unknown;
		if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
	} catch {
		// No settings (or broken ones): the defaults.
	}
	return {};
}

/**
 * The server's environment: the same user (`HOME`, `USER`, `LOGNAME`, `TMPDIR`, `LANG` as the caller
 * has them) and a fixed `PATH` — the folder of the running program, then the system's usual folders.
 * Nothing else of the first caller (its tokens, its `NODE_OPTIONS`, its project variables) reaches
 * the hooks of later calls; each call's own project variable travels with its request.
 */
export function serverEnvironment(): Record<string, string> {
	const env: Record<string, string> = {};
	for (const name of ["HOME", "USER", "LOGNAME", "TMPDIR", "LANG"]) {
		const value = process.env[name];
		if (value) env[name] = value;
	}
	const own = process.execPath.slice(0, process.execPath.lastIndexOf("/")) || "/";
	env.PATH = [own, "/usr/local/bin", "/opt/homebrew/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin"].join(":");
	return env;
}

/** How to run this program again (as src/install/bridge-command.ts's selfArgv). */
function selfArgv(): string[] {
	if (Bun.isStandaloneExecutable) return [process.execPath];
	return [process.execPath, "--no-env-file", "--config=/dev/null", `${import.meta.dir}/../cli.ts`];
}

/** Whether process `pid` runs (one of another user counts: it is not ours to judge). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** Creates the lock; false when it exists. */
function createLock(lock: string): boolean {
	try {
		closeSync(openSync(lock, "wx", 0o600));
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
}

/** Takes the start lock: true when this process may start the server. */
export function takeStartLock(lock = startLockPath()): boolean {
	if (createLock(lock)) return true;
	let seen: string;
	let age: number;
	try {
		seen = readFileSync(lock, "utf8");
		age = Date.now() - statSync(lock).mtimeMs;
	} catch {
		return createLock(lock); // removed meanwhile: one more try
	}
	const pid = Number.parseInt(seen, 10);
	// Empty: its starter is between creating and writing it.
	const stale = age > STALE_LOCK_MS || (Number.isSafeInteger(pid) && pid > 0 && !alive(pid));
	if (!stale) return false;
	const aside = `${lock}.${process.pid}.stale`;
	try {
		renameSync(lock, aside);
	} catch {
		return false; // another caller broke it first
	}
	let taken: string | undefined;
	try {
		taken = readFileSync(aside, "utf8");
	} catch {
		taken = undefined;
	}
	if (taken !== seen) {
		// Not the lock that was judged stale (a fresh one took its place): put it back unless another did.
		try {
			linkSync(aside, lock);
		} catch {}
		try {
			unlinkSync(aside);
		} catch {}
		return false;
	}
	unlinkSync(aside);
	return createLock(lock);
}

/**
 * Writes `pid` into the lock where it still is: opened without creating it, so a lock the server
 * already removed (it listens) is not brought back.
 */
function writeLockPid(lock: string, pid: number): void {
	let fd: number;
	try {
		fd = openSync(lock, "r+");
	} catch {
		return;
	}
	try {
		writeSync(fd, `${pid}\n`);
	} finally {
		closeSync(fd);
	}
}

/**
 * Removes the start lock once a server listens, whoever took it: with a server listening no call
 * starts another, and a start under way cannot listen there anyway.
 */
export function releaseStartLock(lock = startLockPath()): void {
	try {
		unlinkSync(lock);
	} catch {
		// No lock.
	}
}

/** The folder is the user's and writable by nobody else (what `serve --socket` requires); created 0700 when missing. */
function folderFit(dir: string): boolean {
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const info = statSync(dir);
		const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
		return info.isDirectory() && (uid === undefined || info.uid === uid) && (info.mode & 0o022) === 0;
	} catch {
		return false;
	}
}

/** The log, opened for appending (started afresh when large). */
function openLog(): number {
	const log = serverLogPath();
	let big = false;
	try {
		big = statSync(log).size > MAX_LOG_BYTES;
	} catch {}
	return openSync(log, big ? "w" : "a", 0o600);
}

/**
 * Starts `serve --socket --idle-exit N` detached unless settings turn it off, the folder is not fit,
 * or another start is under way; returns the new server's pid, or `undefined` when none was started.
 * Never throws: a server is never needed for a call.
 */
export async function startServer(why: string): Promise<number | undefined> {
	try {
		const settings = autostartSettings();
		if (!settings.enabled || !folderFit(agentDir())) return undefined;
		const lock = startLockPath();
		if (!takeStartLock(lock)) return undefined;
		// A server may have started listening (and removed its lock) since this call looked.
		if (await answering(`${agentDir()}/bridge.sock`)) {
			releaseStartLock(lock);
			return undefined;
		}
		let pid: number | undefined;
		try {
			const log = openLog();
			writeSync(log, `${new Date().toISOString()} starting the hook server (pid ${process.pid}: ${why})\n`);
			try {
				const proc = Bun.spawn([...selfArgv(), "serve", "--socket", "--idle-exit", String(settings.idleExitMinutes)], {
					cwd: agentDir(),
					env: serverEnvironment(),
					stdin: "ignore",
					stdout: log,
					stderr: log,
					detached: true,
				});
				proc.unref();
				pid = proc.pid;
			} finally {
				closeSync(log);
			}
			writeLockPid(lock, pid);
			return pid;
		} catch {
			// Nothing started: the lock goes, so the next call may try again.
			if (pid === undefined)
				try {
					unlinkSync(lock);
				} catch {}
			return pid;
		}
	} catch {
		return undefined;
	}
}
