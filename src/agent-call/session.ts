import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "pathe";
import { userAgentDir } from "../paths.ts";

/*
 * Session continuity (docs/contract.md#bridges): each agent call is a new process, so what hooks append lives in one
 * JSONL file per agent session, `~/.xcsh/agent/sessions/<agent>/<session id>.jsonl`.
 */

const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * A file name for an agent's session id that cannot leave the folder: ids made only of letters,
 * digits, `.`, `_` and `-` (not starting with `.`) are used as they are; any other id has the other
 * characters replaced and a hash of the original appended, so two ids never share a file.
 */
export function sessionFileName(sessionId: string): string {
	if (SAFE.test(sessionId)) return `${sessionId}.jsonl`;
	const cleaned =
		sessionId
			.replace(/[^A-Za-z0-9._-]/g, "_")
			.replace(/^\.+/, "_")
			.slice(0, 100) || "session";
	return `${cleaned}-${Bun.hash(sessionId).toString(36)}.jsonl`;
}

/** The session file of an agent session; calls without a session id share `<agent>/no-session.jsonl`. */
export function agentSessionFile(agent: string, sessionId: string | undefined): string {
	return join(userAgentDir(), "sessions", agent, sessionId ? sessionFileName(sessionId) : "no-session.jsonl");
}

/**
 * Creates the session file with its header unless it exists. The header is written to a private
 * file first and linked into place, so a file under its final name is never headerless: two bridge
 * processes starting one session at once both find one header, never two. The header's id is the
 * agent's session id, so `ctx.sessionManager.getSessionId()` is the id the agent knows.
 */
export function ensureSessionFile(file: string, sessionId: string | undefined, cwd: string): void {
	try {
		if (statSync(file).size > 0) return;
	} catch {
		// missing: created below
	}
	const dir = join(file, "..");
	mkdirSync(dir, { recursive: true });
	const header = { type: "session", version: 1, id: sessionId || crypto.randomUUID(), timestamp: new Date().toISOString(), cwd };
	const temp = `${file}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
	const fd = openSync(temp, "wx");
	try {
		writeSync(fd, `${JSON.stringify(header)}\n`);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	try {
		linkSync(temp, file);
	} catch (error) {
		// Another process linked its header first (EEXIST), or the file was made empty by hand: the session store handles both.
		if ((error as { code?: string }).code !== "EEXIST") throw error;
	} finally {
		unlinkSync(temp);
	}
}
