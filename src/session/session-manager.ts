import { XcshError } from "../errors.ts";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, join, resolve } from "pathe";
import type { AgentMessage, HookMessage } from "../messages.ts";
import { userAgentDir } from "../paths.ts";
import { appendDurably, endsWithNewline, hasErrorCode, readIfExists, writeHeader } from "./_file.ts";
import { deepFreeze } from "../freeze.ts";
import { checkEntry, parseSession } from "./_parse.ts";
import { branchPath, buildTree } from "./_tree.ts";
import type { ReadonlySessionManager, SessionEntry, SessionHeader, SessionTreeNode } from "./types.ts";

/** Options of {@link SessionManager.create}. */
export interface CreateSessionOptions {
	/** Working directory recorded in the header. */
	cwd: string;
	/** Where the new file goes; default {@link defaultSessionDir}. */
	sessionDir?: string;
	/** File of the session this one continues from, recorded in the header. */
	parentSession?: string;
}

/** Options of {@link SessionManager.open}. */
export interface OpenSessionOptions {
	/** Called once per line skipped on load (torn, unparseable or invalid); see also `getWarnings()`. */
	onWarning?(message: string): void;
	/** Working directory recorded when the file has to be created; default `process.cwd()`. */
	cwd?: string;
}

/** `<HOME>/.xcsh/agent/sessions`, with `HOME` read at call time. */
export function defaultSessionDir(): string {
	return join(userAgentDir(), "sessions");
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type NewEntry = DistributiveOmit<SessionEntry, "id" | "parentId" | "timestamp">;

interface SessionState {
	header: SessionHeader;
	dir: string;
	file?: string;
	fd?: number;
	entries?: SessionEntry[];
	warnings?: string[];
	needsNewline?: boolean;
}

/**
 * A JSONL session: a header line, then one entry per line, each chained by `parentId` to the leaf
 * at the time it was written. Every append is a single O_APPEND write followed by fsync before the
 * call returns, so an acknowledged entry survives `kill -9`. The leaf is not persisted: on open it
 * is the last entry of the file, so a `branch()` without a following append is not remembered.
 */
export class SessionManager implements ReadonlySessionManager {
	readonly #header: SessionHeader;
	readonly #dir: string;
	readonly #file: string | undefined;
	#fd: number | undefined;
	#closed = false;
	/** The file does not end in "\n" (torn tail, or a failed write): prefix the next line with one. */
	#needsNewline: boolean;
	readonly #entries: SessionEntry[] = [];
	readonly #byId = new Map<string, SessionEntry>();
	readonly #labels = new Map<string, string>();
	readonly #warnings: string[];
	#leafId: string | null = null;

	private constructor(state: SessionState) {
		this.#header = state.header;
		this.#dir = state.dir;
		this.#file = state.file;
		this.#fd = state.fd;
		this.#needsNewline = state.needsNewline ?? false;
		this.#warnings = state.warnings ?? [];
		for (const entry of state.entries ?? []) this.#index(entry);
	}

	/** Starts a new session file `<sessionDir>/<time>_<id>.jsonl`; the header is on disk when this returns. */
	static create(options: CreateSessionOptions): SessionManager {
		const dir = resolve(options.sessionDir ?? defaultSessionDir());
		const header = newHeader(resolve(options.cwd), options.parentSession);
		const file = join(dir, `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`);
		mkdirSync(dir, { recursive: true });
		const fd = writeHeader(file, "ax", "", header);
		return new SessionManager({ header, dir, file, fd });
	}

	/**
	 * Loads a session file, creating it (with a header) when it is missing or empty. Bad lines are
	 * skipped with warnings; a file whose first line is not a session header throws a
	 * `XcshError` `NOT_A_SESSION` and is left untouched.
	 */
	static open(file: string, options: OpenSessionOptions = {}): SessionManager {
		const path = resolve(file);
		const dir = dirname(path);
		const text = readIfExists(path);
		if (text === undefined || text.trim() === "") {
			// Nothing to lose: a missing file, one made by `touch`, or a crash before the header landed.
			mkdirSync(dir, { recursive: true });
			const header = newHeader(resolve(options.cwd ?? process.cwd()));
			const separator = text && !text.endsWith("\n") ? "\n" : "";
			let fd: number;
			try {
				fd = writeHeader(path, text === undefined ? "ax" : "a", separator, header);
			} catch (error) {
				// Another process created the file between our read and our open: load its session.
				if (hasErrorCode(error, "EEXIST")) return SessionManager.open(file, options);
				throw error;
			}
			return new SessionManager({ header, dir, file: path, fd });
		}
		const parsed = parseSession(text, path);
		for (const warning of parsed.warnings) options.onWarning?.(warning);
		return new SessionManager({ ...parsed, dir, file: path, fd: openSync(path, "a") });
	}

	/** A session that lives only in memory: same API, nothing written. */
	static inMemory(cwd: string = process.cwd()): SessionManager {
		return new SessionManager({ header: newHeader(resolve(cwd)), dir: defaultSessionDir() });
	}

	/** Appends a conversation message; returns the new entry's id. */
	appendMessage(message: AgentMessage): string {
		return this.#append({ type: "message", message });
	}

	/** Appends hook state (`pi.appendEntry`), not sent to the model; returns the new entry's id. */
	appendCustomEntry(customType: string, data?: unknown): string {
		return this.#append({ type: "custom", customType, data });
	}

	/** Appends a hook message (`pi.sendMessage`); returns the new entry's id. */
	appendCustomMessage(message: HookMessage): string {
		const { customType, content, display, details } = message;
		return this.#append({ type: "custom_message", customType, content, display, details });
	}

	/** Sets (or, with `label` undefined, clears) the label of an existing entry; returns the label entry's id. */
	appendLabel(targetId: string, label: string | undefined): string {
		this.#require(targetId, "label target");
		return this.#append({ type: "label", targetId, ...(label === undefined ? {} : { label }) });
	}

	/** Records a compaction summary replacing everything before `firstKeptEntryId`; returns its id. */
	appendCompaction(compaction: { summary: string; firstKeptEntryId: string; tokensBefore?: number; details?: unknown }): string {
		this.#require(compaction.firstKeptEntryId, "firstKeptEntryId");
		return this.#append({ type: "compaction", ...compaction });
	}

	/** Records the summary of a branch left at `fromId` (typically right after {@link branch}); returns its id. */
	appendBranchSummary(summary: { fromId: string; summary: string; details?: unknown }): string {
		this.#require(summary.fromId, "fromId");
		return this.#append({ type: "branch_summary", ...summary });
	}

	/** Moves the leaf to `fromId`: the next append becomes its child. Writes nothing. */
	branch(fromId: string): void {
		this.#require(fromId, "branch point");
		this.#leafId = fromId;
	}

	/** Warnings collected while loading (lines skipped, with file and line number). */
	getWarnings(): string[] {
		return [...this.#warnings];
	}

	/** Closes the file; later appends throw `SESSION_CLOSED`. Safe to call twice. */
	close(): void {
		this.#closed = true;
		if (this.#fd === undefined) return;
		closeSync(this.#fd);
		this.#fd = undefined;
	}

	[Symbol.dispose](): void {
		this.close();
	}

	getCwd(): string {
		return this.#header.cwd;
	}
	getSessionDir(): string {
		return this.#dir;
	}
	getSessionId(): string {
		return this.#header.id;
	}
	getSessionFile(): string | undefined {
		return this.#file;
	}
	getHeader(): SessionHeader {
		return this.#header;
	}
	getEntries(): SessionEntry[] {
		return [...this.#entries];
	}
	getEntry(id: string): SessionEntry | undefined {
		return this.#byId.get(id);
	}
	getLeafId(): string | null {
		return this.#leafId;
	}
	getLeafEntry(): SessionEntry | undefined {
		return this.#leafId === null ? undefined : this.#byId.get(this.#leafId);
	}
	getLabel(id: string): string | undefined {
		return this.#labels.get(id);
	}

	getBranch(fromId: string | undefined = this.#leafId ?? undefined): SessionEntry[] {
		return fromId === undefined ? [] : branchPath(this.#byId, fromId);
	}
	getTree(): SessionTreeNode[] {
		return buildTree(this.#entries);
	}

	#append(fields: NewEntry): string {
		if (this.#closed) {
			throw new XcshError("SESSION_CLOSED", `Session ${this.#file ?? this.#header.id} is closed`);
		}
		// `type` first, for a readable file.
		const entry = Object.assign({ type: fields.type, id: this.#newId(), parentId: this.#leafId, timestamp: now() }, fields);
		const line = JSON.stringify(entry);
		// Keep exactly what a reload would read back (undefined fields dropped, dates as strings...).
		const stored = JSON.parse(line) as SessionEntry;
		const problem = checkEntry(stored);
		if (problem) throw new XcshError("INVALID_ENTRY", `Cannot append a "${fields.type}" entry: ${problem}`);
		if (this.#fd !== undefined) {
			// A tail seen at open may have been another process's write still in flight (bridge calls of one
			// session run side by side): prefix a newline only if the file still does not end in one.
			const prefix = this.#needsNewline && !endsWithNewline(this.#fd) ? "\n" : "";
			// Until the write is known complete it may have left a torn tail behind.
			this.#needsNewline = true;
			appendDurably(this.#fd, `${prefix}${line}\n`);
			this.#needsNewline = false;
		}
		this.#index(deepFreeze(stored));
		return stored.id;
	}

	#index(entry: SessionEntry): void {
		this.#entries.push(entry);
		this.#byId.set(entry.id, entry);
		if (entry.type === "label") {
			if (entry.label === undefined) this.#labels.delete(entry.targetId);
			else this.#labels.set(entry.targetId, entry.label);
		}
		this.#leafId = entry.id;
	}

	#require(id: string, role: string): void {
		if (this.#byId.has(id)) return;
		throw new XcshError("UNKNOWN_ENTRY", `Unknown ${role} "${id}" in session ${this.#file ?? this.#header.id}`);
	}

	#newId(): string {
		let id: string;
		do id = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
		while (this.#byId.has(id));
		return id;
	}
}

function now(): string {
	return new Date().toISOString();
}

function newHeader(cwd: string, parentSession?: string): SessionHeader {
	const header: SessionHeader = { type: "session", version: 1, id: crypto.randomUUID(), timestamp: now(), cwd };
	if (parentSession !== undefined) header.parentSession = parentSession;
	return deepFreeze(header);
}
