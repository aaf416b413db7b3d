import { statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "pathe";
import { readHookFile, sha256Hex } from "../trust/trust-store.ts";
import type { AgentHookEntry } from "./types.ts";

/*
 * What approving a project-level agent entry covers (SPEC §10, Trust): the entry itself — the canonical
 * JSON of its matcher and handler, so any edit of the command, arguments, matcher or timeout is a change
 * — and the bytes of every script inside the project the command names (`.claude/hooks/guard.sh`,
 * `"$CLAUDE_PROJECT_DIR"/hooks/x.py`, `bun .cursor/hooks/g.ts`). Files the script reads in turn are not
 * covered; a script outside the project is the user's machine, not the repository's content.
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

/** Files inside the entry's project that its command names, in order of appearance, each once. */
export function namedScripts(entry: AgentHookEntry): string[] {
	const project = entry.projectDir;
	if (!project) return [];
	const base = entry.runDir ?? project;
	const found: string[] = [];
	for (const raw of [...commandWords(entry.command), ...(entry.args ?? [])]) {
		const word = raw.replace(PROJECT_VARS, project);
		if (!word || word.includes("$") || word.startsWith("-")) continue;
		const path = isAbsolute(word) ? resolve(word) : resolve(base, word);
		const inside = relative(project, path);
		if (inside.startsWith("..") || isAbsolute(inside) || inside === "") continue;
		if (!statSync(path, { throwIfNoEntry: false })?.isFile() || found.includes(path)) continue;
		found.push(path);
	}
	return found;
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
