import { XcshError } from "../errors.ts";
import { closeSync, constants, fstatSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "pathe";
import { userAgentDir } from "../paths.ts";

/** What a guard decided. */
export type Decision = "allow" | "deny" | "rewrite" | "ask";

/** One line of the decision log. Only these fields are written: never a tool's input or output. */
export interface DecisionEntry {
	/** ISO time; now when omitted. */
	time?: string;
	/** The agent bridged (`claude`, `codex`, …), or `cli` for the CLI's own `emit`/`run`. */
	agent: string;
	/** The agent's session id (or the CLI's session), when known. */
	session?: string | undefined;
	/** The agent's event name (`PreToolUse`, `BeforeTool`, …) or the xcsh event (`tool_call`). */
	event: string;
	/** The tool's name; its input is never logged. */
	tool?: string | undefined;
	/** The subagent that made the call (its id), when a subagent did. */
	subagent?: string | undefined;
	/** That subagent's type, when the agent names one. */
	subagentType?: string | undefined;
	/** The MCP server of an MCP tool (`files` for `mcp__files__delete_path`). */
	mcpServer?: string | undefined;
	decision: Decision;
	/** The deciding hook's reason. */
	reason?: string | undefined;
	/** Path of the deciding hook, when known. */
	hook?: string | undefined;
	/** How long the decision took. */
	durationMs?: number;
}

/** Options of {@link appendDecision}. */
export interface AppendDecisionOptions {
	/** Log file (default {@link decisionLogFile}). */
	file?: string;
	/** `false` writes nothing (the user settings' `decisionLog`; see {@link decisionLogEnabled}). */
	enabled?: boolean;
	/** Called with the warning when the line could not be written. */
	onWarning?: (warning: string) => void;
	/** Size past which the log is rotated (default {@link DECISION_LOG_MAX_BYTES}). */
	maxBytes?: number;
}

/**
 * The log is rotated once it passes 10 MiB: the file becomes `decisions.jsonl.1` (replacing the one
 * before) and the next line starts a new file. `log` reads both, so at most ≈20 MiB are kept.
 */
export const DECISION_LOG_MAX_BYTES = 10 * 1024 * 1024;

/** The previous log, kept by one rotation. */
export const previousLogFile = (file: string): string => `${file}.1`;

/** A rotation lock older than this was left by a process that died mid-rotation. */
const STALE_LOCK_MS = 30_000;

/**
 * Moves a full log aside. Safe with concurrent writers: only the process holding `<file>.lock`
 * (created with O_EXCL) rotates, and only if the file at `file` is still the one it wrote to (same
 * inode; another process may have rotated it already). A rename never loses a line: a writer that
 * opened the file before it appends to the rotated one, which `log` reads too. Never throws.
 */
function rotate(file: string, fd: number): void {
	const lock = `${file}.lock`;
	let held: number | undefined;
	try {
		held = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") return;
		try {
			if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock); // the next writer rotates
		} catch {
			// another process removed it
		}
		return;
	}
	try {
		if (statSync(file).ino === fstatSync(fd).ino) renameSync(file, previousLogFile(file));
	} catch {
		// a log that cannot be rotated keeps growing; the line is written either way
	} finally {
		closeSync(held);
		try {
			unlinkSync(lock);
		} catch {
			// removed as stale by another process
		}
	}
}

/** Result of {@link appendDecision}: it never throws. */
export interface AppendDecisionResult {
	written: boolean;
	warning?: string;
}

const MAX_REASON = 2000;

/** `~/.xcsh/agent/decisions.jsonl`. */
export function decisionLogFile(): string {
	return join(userAgentDir(), "decisions.jsonl");
}

/**
 * Whether the decision log is on: only the user's settings (`~/.xcsh/agent/settings.json`) can turn it
 * off with `"decisionLog": false`, so a project cannot silence the record of what its hooks decided.
 */
export function decisionLogEnabled(userSettings: Record<string, unknown> | undefined): boolean {
	return userSettings?.decisionLog !== false;
}

/** The JSON line for `entry`: known fields only, in a fixed order, strings capped. */
export function decisionLine(entry: DecisionEntry): string {
	const text = (value: unknown, max = 500) => (typeof value === "string" ? value.slice(0, max) : undefined);
	const line = {
		time: text(entry.time) ?? new Date().toISOString(),
		agent: text(entry.agent) ?? "unknown",
		session: text(entry.session),
		event: text(entry.event) ?? "unknown",
		tool: text(entry.tool),
		subagent: text(entry.subagent),
		subagentType: text(entry.subagentType),
		mcpServer: text(entry.mcpServer),
		decision: text(entry.decision, 20) ?? "unknown",
		reason: text(entry.reason, MAX_REASON),
		hook: text(entry.hook, 4096),
		durationMs:
			typeof entry.durationMs === "number" && Number.isFinite(entry.durationMs) ? Math.round(entry.durationMs * 10) / 10 : undefined,
	};
	return `${JSON.stringify(line)}\n`;
}

/**
 * Appends one decision as one whole line. The line goes out in a single `write` on a descriptor opened
 * with `O_APPEND`, so lines from concurrent processes never interleave or overwrite each other.
 * Synchronous (one small write; the bridge calls it on its hot path) and never throws: a failure is
 * returned (and passed to `onWarning`) instead.
 */
export function appendDecision(entry: DecisionEntry, options: AppendDecisionOptions = {}): AppendDecisionResult {
	if (options.enabled === false) return { written: false };
	const file = options.file ?? decisionLogFile();
	let fd: number | undefined;
	try {
		const data = Buffer.from(decisionLine(entry), "utf8");
		const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
		try {
			fd = openSync(file, flags, 0o600);
		} catch (error) {
			// The folder is created only the first time: a mkdir on every call costs the hot path.
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
			fd = openSync(file, flags, 0o600);
		}
		const info = fstatSync(fd);
		if (!info.isFile()) throw new XcshError("NOT_A_REGULAR_FILE", "not a regular file");
		const written = writeSync(fd, data);
		if (written !== data.length) throw new XcshError("WRITE_FAILED", `short write (${written} of ${data.length} bytes)`);
		// This line is written first, then a full file is moved aside: the line is in the rotated file.
		if (info.size + written > (options.maxBytes ?? DECISION_LOG_MAX_BYTES)) rotate(file, fd);
		return { written: true };
	} catch (error) {
		const warning = `decision log ${file}: ${(error as Error).message}; decision not logged`;
		try {
			options.onWarning?.(warning);
		} catch {
			// a throwing listener must not reach the caller either
		}
		return { written: false, warning };
	} finally {
		if (fd !== undefined)
			try {
				closeSync(fd);
			} catch {
				// the line is written; a failing close changes nothing for the caller
			}
	}
}
