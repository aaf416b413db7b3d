import { XcshError } from "../errors.ts";
import { statSync } from "node:fs";
import { checkTimeout } from "../timeouts.ts";

/** Per-stream output cap used when {@link ExecOptions.maxOutputBytes} is not given: 50 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 50 * 1024 * 1024;

const DEFAULT_KILL_GRACE_MS = 1000;
/** Exit code reported when an aborted signal prevented the start: as if SIGTERMed at once (128 + 15). */
const NOT_STARTED_CODE = 143;
/**
 * Once the direct child has exited, a grandchild may still hold the pipes open. Stop reading after
 * this much silence on both pipes...
 */
const DRAIN_IDLE_MS = 50;
/** ...or after this long in total, even if a grandchild keeps writing. */
const DRAIN_MAX_MS = 1000;

/**
 * Process groups started for a killable command (timeout or signal) that may still have members:
 * from the spawn until the command ended normally, or, once it was killed, until the final SIGKILL.
 * Whatever remains when this process exits is SIGKILLed by {@link killLiveGroups}.
 */
const liveGroups = new Set<number>();

/** Options of {@link execCommand}. */
export interface ExecOptions {
	/**
	 * Kill the child and its process group after this many milliseconds. Absent, or longer than a timer
	 * can hold (`Infinity`), means no timeout; zero, negative or NaN is an error naming the option.
	 */
	timeout?: number | undefined;
	/** Aborting kills the child and its process group; an already aborted signal means the command is never started. */
	signal?: AbortSignal | undefined;
	/** Working directory; overrides the `cwd` argument. */
	cwd?: string;
	/**
	 * Environment of the child; replaces the inherited one (spread `process.env` to extend it). Absent, the
	 * child inherits `process.env` as it is at the call, as Node's child_process does (Bun's own default is
	 * the environment the process started with, which would hand the child a `HOME` the host had replaced).
	 */
	env?: Record<string, string | undefined>;
	/** Bytes kept per stream; later output is read and discarded, and `truncated` is set. Default 50 MiB. */
	maxOutputBytes?: number;
	/** Milliseconds between SIGTERM and SIGKILL when the child's group must be killed. Default 1000. */
	killGraceMs?: number;
	/** Text written to the child's stdin (then closed); without it stdin is closed from the start. */
	input?: string;
}

/** Outcome of {@link execCommand}; it resolves the same way for success, failure and kills. */
export interface ExecResult {
	/** Standard output, UTF-8 decoded, at most `maxOutputBytes` of it. */
	stdout: string;
	/** Standard error, UTF-8 decoded, at most `maxOutputBytes` of it. */
	stderr: string;
	/** Exit code; `128 + signal number` when the child died from a signal (143 TERM, 137 KILL). */
	code: number;
	/** The child was killed (or never started) because of the timeout or the abort signal. */
	killed: boolean;
	/** Set when either stream produced more than `maxOutputBytes`. */
	truncated?: boolean;
}

interface Sink {
	chunks: Uint8Array[];
	size: number;
	truncated: boolean;
	done: boolean;
	/** Stops reading; a pending read then ends as if the pipe closed. */
	cancel: () => Promise<void>;
	finished: Promise<void>;
}

/** Shared between both sinks so the drain knows when the pipes last spoke. */
interface Activity {
	lastDataAt: number;
}

/**
 * Runs `command` with `args` (argv, no shell) in `options.cwd ?? cwd`, stdin closed (or fed
 * `options.input`), and collects its output. Never rejects once the child started; rejects with an
 * error naming the command or the working directory when it cannot start.
 *
 * Killing: with a `timeout` or a `signal`, the child is spawned `detached` (on POSIX its own session
 * and process group, with no controlling terminal), and a kill signals the whole group, so
 * grandchildren (`bash -c 'sleep 60 & wait'`) die with it: SIGTERM, then SIGKILL to whatever is left
 * after `killGraceMs`. The result does not wait for that grace once the child itself is gone; the
 * final SIGKILL still reaches lingering group members. Without `timeout` and `signal` nothing can
 * kill the child, so it is spawned plainly (the fast path) in this process's group.
 *
 * A group that is detached is out of reach of the terminal's Ctrl-C and hangup, so this module
 * remembers the groups it may still have to kill (a command still running, or killed and within its
 * grace) and SIGKILLs them from a `process.on("exit")` listener, which is registered only while
 * there is such a group. This covers `process.exit()` and a drained event loop (for example a CLI
 * finishing while a timed-out hook handler's command still runs); it cannot cover this process
 * being killed by a signal that runs no exit listeners (SIGTERM or SIGHUP without a handler,
 * SIGKILL). Background processes of a command that exited by itself (`server &`) are not killed,
 * neither then nor at exit.
 */
export async function execCommand(command: string, args: string[], cwd: string, options: ExecOptions = {}): Promise<ExecResult> {
	const { signal } = options;
	const timeout = checkTimeout(options.timeout, "options.timeout");
	if (signal?.aborted) return { stdout: "", stderr: "", code: NOT_STARTED_CODE, killed: true };
	const dir = options.cwd ?? cwd;
	const killable = timeout !== undefined || signal !== undefined;
	// The group is only created (and only worth its cost) when something may have to kill it.
	const detached = killable && process.platform !== "win32";
	let proc: Bun.Subprocess<"ignore" | Uint8Array, "pipe", "pipe">;
	try {
		proc = Bun.spawn([command, ...args], {
			cwd: dir,
			env: options.env ?? process.env,
			stdin: options.input === undefined ? "ignore" : new TextEncoder().encode(options.input),
			stdout: "pipe",
			stderr: "pipe",
			detached,
		});
	} catch (error) {
		throw spawnError(error, command, dir);
	}
	const pid = proc.pid;
	if (detached) trackGroup(pid);

	const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
	const activity: Activity = { lastDataAt: 0 };
	const out = sink(proc.stdout, max, activity);
	const err = sink(proc.stderr, max, activity);

	let killed = false;
	let timer: Timer | undefined;
	let graceTimer: Timer | undefined;
	const send = (sig: "SIGTERM" | "SIGKILL") => {
		if (!detached || !signalGroup(pid, sig)) {
			if (proc.exitCode === null && proc.signalCode === null) proc.kill(sig);
		}
	};
	const kill = () => {
		if (killed || proc.exitCode !== null || proc.signalCode !== null) return;
		killed = true;
		send("SIGTERM");
		graceTimer = setTimeout(() => {
			graceTimer = undefined;
			send("SIGKILL");
			if (detached) untrackGroup(pid);
		}, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
	};
	if (timeout !== undefined) timer = setTimeout(kill, timeout);
	signal?.addEventListener("abort", kill, { once: true });

	const code = await proc.exited;
	if (timer) clearTimeout(timer);
	signal?.removeEventListener("abort", kill);
	if (graceTimer && detached && groupAlive(pid)) {
		// Members that survived the SIGTERM still get their SIGKILL, without delaying the result or
		// keeping the event loop alive (the exit listener covers a process that ends sooner).
		graceTimer.unref();
	} else {
		if (graceTimer) clearTimeout(graceTimer);
		if (detached) untrackGroup(pid);
	}
	if (!out.done || !err.done) {
		const stopDrain = drain([out, err], activity);
		await out.finished;
		await err.finished;
		stopDrain();
	}

	const result: ExecResult = { stdout: decode(out), stderr: decode(err), code, killed };
	if (out.truncated || err.truncated) result.truncated = true;
	return result;
}

/**
 * Signals every member of process group `pgid`; `false` when there is no such group (ESRCH) or it
 * cannot be signalled, so the caller can fall back to the child alone.
 */
function signalGroup(pgid: number, sig: "SIGTERM" | "SIGKILL"): boolean {
	try {
		process.kill(-pgid, sig);
		return true;
	} catch {
		return false;
	}
}

/** Whether process group `pgid` still has a member (a zombie counts until it is reaped). */
function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

function trackGroup(pgid: number): void {
	if (liveGroups.size === 0) process.on("exit", killLiveGroups);
	liveGroups.add(pgid);
}

function untrackGroup(pgid: number): void {
	if (liveGroups.delete(pgid) && liveGroups.size === 0) process.off("exit", killLiveGroups);
}

/** `exit` listener: SIGKILLs the groups this process would otherwise leave running. */
function killLiveGroups(): void {
	for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
	liveGroups.clear();
}

/** Reads a stream to its end, keeping at most `max` bytes. */
function sink(stream: ReadableStream<Uint8Array>, max: number, activity: Activity): Sink {
	const reader = stream.getReader();
	const cancel = () => reader.cancel();
	const s: Sink = { chunks: [], size: 0, truncated: false, done: false, cancel, finished: Promise.resolve() };
	s.finished = (async () => {
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				activity.lastDataAt = performance.now();
				const room = max - s.size;
				if (value.byteLength <= room) {
					s.chunks.push(value);
					s.size += value.byteLength;
				} else {
					// Keep reading so the child never blocks on a full pipe, but store nothing more.
					if (room > 0) {
						s.chunks.push(value.subarray(0, room));
						s.size = max;
					}
					s.truncated = true;
				}
			}
		} catch {
			// A pipe that errors after the child exited holds nothing we could still use.
		} finally {
			s.done = true;
		}
	})();
	return s;
}

/**
 * Gives the pipes a short window after the child exited, then cancels the readers: a grandchild
 * holding a pipe must neither delay the result nor keep the event loop alive.
 */
function drain(sinks: Sink[], activity: Activity): () => void {
	const start = performance.now();
	activity.lastDataAt = Math.max(activity.lastDataAt, start);
	let timer: Timer;
	const check = () => {
		const now = performance.now();
		const idle = now - activity.lastDataAt;
		if (idle < DRAIN_IDLE_MS && now - start < DRAIN_MAX_MS) {
			timer = setTimeout(check, DRAIN_IDLE_MS - idle);
			return;
		}
		for (const s of sinks) if (!s.done) s.cancel().catch(() => {});
	};
	timer = setTimeout(check, DRAIN_IDLE_MS);
	return () => clearTimeout(timer);
}

function decode(s: Sink): string {
	if (s.chunks.length === 0) return "";
	return Buffer.concat(s.chunks, s.size).toString("utf8");
}

/** Bun's spawn errors are terse (`posix_spawn 'x'`); say which of command or cwd is at fault. */
function spawnError(error: unknown, command: string, dir: string): Error {
	const stat = statSync(dir, { throwIfNoEntry: false });
	if (!stat) return new XcshError("FILE_NOT_FOUND", `Working directory does not exist: ${dir}`, { cause: error });
	if (!stat.isDirectory()) return new XcshError("INVALID_OPTION", `Working directory is not a directory: ${dir}`, { cause: error });
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code === "ENOENT") return new XcshError("FILE_NOT_FOUND", `Command not found: ${command}`, { cause: error });
	if (code === "EACCES") return new XcshError("COMMAND_FAILED", `Command is not executable: ${command}`, { cause: error });
	const message = error instanceof Error ? error.message : String(error);
	return new XcshError("COMMAND_FAILED", `Failed to run ${command}: ${message}`, { cause: error });
}
