import { XcshError } from "../errors.ts";
import { deepFreeze } from "../freeze.ts";
import { Errors } from "@sinclair/typebox/errors";
import { type SessionEntry, SessionEntrySchemas, type SessionHeader, SessionHeaderSchema } from "./types.ts";

/** What a session file holds, and what loading it had to skip. */
export interface ParsedSession {
	header: SessionHeader;
	entries: SessionEntry[];
	warnings: string[];
	/** The file does not end in "\n": the next write must start a fresh line. */
	needsNewline: boolean;
}

/** Why `value` is not a valid entry (naming the field at fault), or `undefined` when it is one. */
export function checkEntry(value: unknown): string | undefined {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
	const type = (value as { type?: unknown }).type;
	const schema = typeof type === "string" ? SessionEntrySchemas[type as SessionEntry["type"]] : undefined;
	if (!schema) return `unknown entry type ${JSON.stringify(type)}`;
	const error = Errors(schema, value).First();
	if (!error) return undefined;
	return `${error.path || "/"}: ${error.message}`;
}

function parseJson(line: string): { value: unknown } | { error: string } {
	try {
		return { value: JSON.parse(line) };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * Parses the text of a session file. Bad lines are skipped with a warning naming `file` and the
 * 1-based line number; loading never stops at one. Throws an `XcshError` (`NOT_A_SESSION`, `UNSUPPORTED_VERSION`) only when the first
 * non-blank line is not a session header, so a file that is not a session is never taken for one.
 */
export function parseSession(text: string, file: string): ParsedSession {
	const lines = text.split("\n");
	// Every complete write ends in "\n"; a last segment without one is an interrupted write.
	const tail = lines.pop() ?? "";
	const warnings: string[] = [];
	const entries: SessionEntry[] = [];
	const seen = new Set<string>();
	let header: SessionHeader | undefined;

	const all = tail.trim() === "" ? lines : [...lines, tail];
	for (const [index, line] of all.entries()) {
		if (line.trim() === "") continue;
		const where = `${file}:${index + 1}`;
		const torn = index === lines.length;
		const parsed = parseJson(line);

		if (!header) {
			header = readHeader(parsed, file);
			continue;
		}
		if ("error" in parsed) {
			warnings.push(
				torn
					? `${where}: skipped incomplete last line (interrupted write?): ${parsed.error}`
					: `${where}: skipped unparseable line: ${parsed.error}`,
			);
			continue;
		}
		const problem = checkEntry(parsed.value);
		if (problem) {
			warnings.push(`${where}: skipped invalid entry: ${problem}`);
			continue;
		}
		const entry = parsed.value as SessionEntry;
		if (seen.has(entry.id)) {
			warnings.push(`${where}: skipped entry with duplicate id "${entry.id}"`);
			continue;
		}
		seen.add(entry.id);
		entries.push(deepFreeze(entry));
	}
	if (!header) throw notASession(file, "it has no session header");
	return { header: deepFreeze(header), entries, warnings, needsNewline: tail !== "" };
}

function readHeader(parsed: { value: unknown } | { error: string }, file: string): SessionHeader {
	if ("error" in parsed) throw notASession(file, `its first line is not JSON (${parsed.error})`);
	const value = parsed.value as Partial<SessionHeader> | null;
	if (typeof value !== "object" || value === null || value.type !== "session") {
		throw notASession(file, `its first line is not a header {"type":"session",...}`);
	}
	if (value.version !== 1) {
		throw new XcshError(
			"UNSUPPORTED_VERSION",
			`Session file ${file} has version ${JSON.stringify(value.version)}; this build reads version 1. The file was left untouched.`,
		);
	}
	const error = Errors(SessionHeaderSchema, value).First();
	if (error) throw notASession(file, `its header is invalid at ${error.path}: ${error.message}`);
	return value as SessionHeader;
}

function notASession(file: string, why: string): XcshError {
	return new XcshError("NOT_A_SESSION", `${file} is not a session file: ${why}. The file was left untouched.`);
}
