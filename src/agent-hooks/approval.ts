import { statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "pathe";
import { relativeInterpreter } from "../hooks/shell-hook.ts";
import { readHookFile, sha256Hex, TrustError } from "../trust/trust-store.ts";
import type { AgentHookEntry } from "./types.ts";

/*
 * What approving a project-level agent entry covers (SPEC §10, Trust): the entry itself — the canonical
 * JSON of its matcher and handler, so any edit of the command, arguments, matcher or timeout is a change
 * — and the bytes of every script inside the project the command names (`.claude/hooks/guard.sh`,
 * `"$CLAUDE_PROJECT_DIR"/hooks/x.py`, `bun .cursor/hooks/g.ts`). Files the script reads in turn are not
 * covered; a script outside the project is the user's machine, not the repository's content. An entry
 * whose command approval cannot pin ({@link unpinnedReason}) cannot be approved and fails closed.
 */

/** Variables the agents set to the project directory, as commands reference them. */
const PROJECT_VARS = /\$\{?(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CURSOR_PROJECT_DIR|GEMINI_CWD|PWD)\}?/g;

/** The words of a command line: quotes removed, split on blanks and shell operators (enough to find file names). */
export function commandWords(command: string): string[] {
	const words: string[] = [];
	let word = "";
	let quote: '"' | "'" | undefined;
	let started = false;
	const flush = () => {
		if (started) words.push(word);
		word = "";
		started = false;
	};
	for (let i = 0; i < command.length; i++) {
		const c = command[i] as string;
		if (quote) {
			if (c === quote) quote = undefined;
			else if (c === "\\" && quote === '"' && i + 1 < command.length) word += command[++i];
			else word += c;
			continue;
		}
		if (c === '"' || c === "'") {
			quote = c;
			started = true;
		} else if (c === "\\" && i + 1 < command.length) {
			word += command[++i];
			started = true;
		} else if (/[\s;|&()<>]/.test(c)) flush();
		else {
			word += c;
			started = true;
		}
	}
	flush();
	return words;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);

/** The command's words, with the command of every `sh -c "…"` in it expanded in place, project variables substituted. */
function expandedWords(entry: AgentHookEntry, project: string): string[] {
	const out: string[] = [];
	const visit = (words: string[]) => {
		for (let i = 0; i < words.length; i++) {
			const word = (words[i] as string).replace(PROJECT_VARS, project);
			out.push(word);
			const shell = SHELLS.has(word.split("/").pop() ?? "");
			if (shell && words[i + 1] === "-c" && words[i + 2] !== undefined) {
				out.push("-c");
				visit(commandWords(words[i + 2] as string));
				i += 2;
			}
		}
	};
	visit([...commandWords(entry.command), ...(entry.args ?? [])]);
	return out;
}

/** The path a command word names inside the project, or `undefined` (an option, a URL, outside the project). */
function projectPath(word: string, project: string, base: string): string | undefined {
	if (!word || word.startsWith("-") || word.includes("://")) return undefined;
	const path = isAbsolute(word) ? resolve(word) : resolve(base, word);
	const inside = relative(project, path);
	return inside.startsWith("..") || isAbsolute(inside) || inside === "" ? undefined : path;
}

/** Files inside the entry's project that its command names (nested `sh -c` included), in order, each once. */
export function namedScripts(entry: AgentHookEntry): string[] {
	const project = entry.projectDir;
	if (!project) return [];
	const base = entry.runDir ?? project;
	const found: string[] = [];
	for (const word of expandedWords(entry, project)) {
		if (word.includes("$")) continue;
		const path = projectPath(word, project, base);
		if (!path || !statSync(path, { throwIfNoEntry: false })?.isFile() || found.includes(path)) continue;
		found.push(path);
	}
	return found;
}

/**
 * Why approving `entry` could not pin what it runs, or `undefined`. Approval hashes the entry and the
 * project scripts it names; a command that changes directory, expands a variable or a pattern, or names
 * a project path that is not a file (an extension the runtime adds, a path made elsewhere) would run
 * files nobody hashed — such an entry fails closed instead of running on a stale approval.
 */
export function unpinnedReason(entry: AgentHookEntry): string | undefined {
	const project = entry.projectDir;
	if (!project) return undefined;
	const base = entry.runDir ?? project;
	for (const word of expandedWords(entry, project)) {
		if (word === "cd" || word === "pushd") return "it changes directory, so the scripts it then runs are not known";
		if (/[$`]/.test(word)) return `it expands ${JSON.stringify(word)}`;
		const path = projectPath(word, project, base);
		if (!path || !word.includes("/")) continue;
		if (/[*?[]/.test(word)) return `it runs the pattern ${JSON.stringify(word)}`;
		const info = statSync(path, { throwIfNoEntry: false });
		if (!info) return `it names ${JSON.stringify(word)}, which is not a file in the project`;
		if (info.isFile()) {
			const interpreter = relativeInterpreter(readHookFile(path));
			if (interpreter) return `${word} starts with #!${interpreter}, a relative interpreter`;
		}
	}
	return undefined;
}

/** JSON with object keys sorted at every level: the same entry always has the same text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
	if (value !== null && typeof value === "object")
		return `{${Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
			.join(",")}}`;
	return JSON.stringify(value) ?? "null";
}

/**
 * The bytes an approval of `entry` hashes: the canonical JSON of `{agent, event, entry}`, then for each
 * named script a NUL-framed project-relative name and its content. A script that cannot be read is a
 * `TrustError` naming it (the entry then fails closed).
 */
export function approvalContent(entry: AgentHookEntry): Uint8Array {
	const unpinned = unpinnedReason(entry);
	if (unpinned)
		throw new TrustError(
			"HOOK_UNPINNABLE",
			`approval cannot cover what this ${entry.agent} hook runs: ${unpinned}; name each script by its path in the project (e.g. "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh), or make it a user-level hook`,
		);
	const encoder = new TextEncoder();
	const parts: Uint8Array[] = [encoder.encode(canonicalJson({ agent: entry.agent, event: entry.event, entry: entry.raw }))];
	for (const script of namedScripts(entry)) {
		parts.push(encoder.encode(`\n\0${relative(entry.projectDir as string, script)}\0\n`), readHookFile(script));
	}
	const total = parts.reduce((n, p) => n + p.byteLength, 0);
	const bytes = new Uint8Array(total);
	let offset = 0;
	for (const part of parts) {
		bytes.set(part, offset);
		offset += part.byteLength;
	}
	return bytes;
}

/** SHA-256 of {@link approvalContent}. */
export function approvalHash(entry: AgentHookEntry): string {
	return sha256Hex(approvalContent(entry));
}
