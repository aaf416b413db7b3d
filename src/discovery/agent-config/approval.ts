import { XcshError } from "../../errors.ts";
import { statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "pathe";
import { isModulePath, relativeInterpreter } from "../../hooks/shell-hook.ts";
import { filesBeside } from "../hook-folder.ts";
import { readHookFile, sha256Hex } from "../../trust/trust-store.ts";
import { agentsWithOwnHooks, findAgent } from "../../agents/index.ts";
import type { AgentHookEntry } from "../../agents/_shared/entry.ts";
import { projectVariablePattern } from "./run-command.ts";

/*
 * What approving a project-level agent entry covers (docs/contract.md#trust): the entry itself — the canonical
 * JSON of its matcher and handler, so any edit of the command, arguments, matcher or timeout is a change
 * — the bytes of every script inside the project the command names (`.claude/hooks/guard.sh`,
 * `"$CLAUDE_PROJECT_DIR"/hooks/x.py`, `bun .cursor/hooks/g.ts`), and what those scripts run in turn:
 * every file beside each script in its folder (src/discovery/hook-folder.ts: `. ./lib.sh` sources one) and,
 * for a JS/TS script, its import graph (src/hooks/import-graph.ts). A script outside the project is the
 * user's machine, not the repository's content. An entry whose command approval cannot pin (see
 * `commandFiles`) cannot be approved and fails closed. The entry runs its scripts from the project, so
 * the factory hashes all of it again before every run.
 */

/** Variables the agents set to the project directory, as commands reference them (every registered agent's, and `$PWD`). */
const projectVariables = () => projectVariablePattern([...agentsWithOwnHooks().flatMap((agent) => agent.ownHooks.projectVariables), "PWD"]);

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
	const variables = projectVariables();
	const visit = (words: string[]) => {
		for (let i = 0; i < words.length; i++) {
			const word = (words[i] as string).replace(variables, project);
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

/** What one pass over an entry's command finds: the project scripts it names (read once), and why approval cannot pin it. */
interface CommandFiles {
	scripts: Array<{ path: string; bytes: Uint8Array }>;
	unpinned?: string | undefined;
}

/**
 * One pass over the command's words (nested `sh -c` included): every project file it names, read once,
 * and the first reason approval could not pin what it runs — it changes directory, expands a variable or
 * a pattern, names a project path that is not a file (an extension the runtime adds, a path made
 * elsewhere), or a script it names starts with a relative `#!` interpreter. Such an entry would run files
 * nobody hashed, so it fails closed instead of running on a stale approval.
 */
function commandFiles(entry: AgentHookEntry): CommandFiles {
	const found: CommandFiles = { scripts: [] };
	const project = entry.projectDir;
	if (!project) return found;
	const base = entry.runDir ?? project;
	const because = (why: string) => {
		found.unpinned ??= why;
	};
	for (const word of expandedWords(entry, project)) {
		if (word === "cd" || word === "pushd") because("it changes directory, so the scripts it then runs are not known");
		if (/[$`]/.test(word)) {
			because(`it expands ${JSON.stringify(word)}`);
			continue;
		}
		const path = projectPath(word, project, base);
		if (!path) continue;
		if (word.includes("/") && /[*?[]/.test(word)) because(`it runs the pattern ${JSON.stringify(word)}`);
		const info = statSync(path, { throwIfNoEntry: false });
		if (!info) {
			if (word.includes("/")) because(`it names ${JSON.stringify(word)}, which is not a file in the project`);
			continue;
		}
		if (!info.isFile() || found.scripts.some((s) => s.path === path)) continue;
		const bytes = readHookFile(path);
		const interpreter = relativeInterpreter(bytes);
		if (interpreter) because(`${word} starts with #!${interpreter}, a relative interpreter`);
		found.scripts.push({ path, bytes });
	}
	return found;
}

/** Files inside the entry's project that its command names (nested `sh -c` included), in order, each once. */
export function namedScripts(entry: AgentHookEntry): string[] {
	return commandFiles(entry).scripts.map((script) => script.path);
}

/**
 * Every file an approval of `entry` covers — the named scripts, the files beside them, a module script's
 * imports — for a server to watch; an entry approval cannot pin, or files that cannot be read, give none.
 */
export function coveredPaths(entry: AgentHookEntry): string[] {
	try {
		return coveredScripts(commandFiles(entry).scripts).map((script) => script.path);
	} catch {
		return [];
	}
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

/** The named scripts, then the files beside each and a module script's import graph, each once, in a stable order. */
function coveredScripts(scripts: CommandFiles["scripts"]): CommandFiles["scripts"] {
	const all = new Map(scripts.map((script) => [script.path, script.bytes]));
	for (const script of scripts) {
		for (const file of filesBeside(script.path)) if (!all.has(file.path)) all.set(file.path, file.bytes);
		if (!isModulePath(script.path)) continue;
		const { importGraph } = require("../../hooks/import-graph.ts") as typeof import("../../hooks/import-graph.ts");
		let graph: Map<string, Uint8Array>;
		try {
			graph = importGraph(script.path, script.bytes, false);
		} catch (error) {
			throw new XcshError("HOOK_UNPINNABLE", `approval cannot cover what ${script.path} imports: ${(error as Error).message}`);
		}
		for (const [path, bytes] of graph) if (!all.has(path)) all.set(path, bytes);
	}
	return [...all].map(([path, bytes]) => ({ path, bytes }));
}

/**
 * The bytes an approval of `entry` hashes: the canonical JSON of `{agent, event, entry}`, then for each
 * covered file (the named scripts, the files beside them, a module script's imports) a NUL-framed
 * project-relative name and its content. A file that cannot be read is an `XcshError` (a trust code) naming it (the
 * entry then fails closed).
 */
export function approvalContent(entry: AgentHookEntry): Uint8Array {
	const { scripts, unpinned } = commandFiles(entry);
	if (unpinned)
		throw new XcshError(
			"HOOK_UNPINNABLE",
			`approval cannot cover what this ${entry.agent} hook runs: ${unpinned}; name each script by its path in the project (e.g. "$${findAgent(entry.agent)?.ownHooks?.projectVariables[0] ?? "PWD"}"/hooks/guard.sh), or make it a user-level hook`,
		);
	const encoder = new TextEncoder();
	const parts: Uint8Array[] = [encoder.encode(canonicalJson({ agent: entry.agent, event: entry.event, entry: entry.raw }))];
	for (const script of coveredScripts(scripts))
		parts.push(encoder.encode(`\n\0${relative(entry.projectDir as string, script.path)}\0\n`), script.bytes);
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
