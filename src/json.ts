import { XcshError } from "./errors.ts";

/*
 * Untrusted JSON and text from outside (stdin, flags, request lines, hook output): invalid UTF-8 is
 * refused with the byte offset instead of being decoded lossily (`ba\uFFFDsh` is not what was sent),
 * and nesting is limited before parsing, so a 100k-deep document fails at once with a message
 * instead of exhausting the stack after seconds.
 */

/** Deepest nesting of arrays and objects accepted in a JSON document. */
export const MAX_JSON_DEPTH = 256;

/** Decodes UTF-8 strictly; invalid bytes are an error naming `source` and the offset of the first one. */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
	} catch {
		throw new XcshError("INVALID_JSON", `${source} is not valid UTF-8: invalid byte at offset ${invalidUtf8Offset(bytes)}`);
	}
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function invalidUtf8Offset(bytes: Uint8Array): number {
	for (let i = 0; i < bytes.length; ) {
		const b = bytes[i] as number;
		const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
		if (length === 0) return i;
		for (let k = 1; k < length; k++) {
			const c = bytes[i + k];
			if (c === undefined || (c & 0xc0) !== 0x80) return i;
		}
		// Overlong three/four-byte forms, surrogates and code points past U+10FFFF.
		const c1 = bytes[i + 1] as number;
		if ((b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 >= 0xa0) || (b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 >= 0x90)) return i;
		i += length;
	}
	return bytes.length;
}

/** The deepest array/object nesting of a JSON text, stopping as soon as it passes `limit`. */
function nestingDepth(text: string, limit: number): number {
	let depth = 0;
	let max = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 92)
				i++; // backslash: skip the escaped character
			else if (c === 34) inString = false;
		} else if (c === 34) inString = true;
		else if (c === 91 || c === 123) {
			depth++;
			if (depth > max) {
				max = depth;
				if (max > limit) return max;
			}
		} else if (c === 93 || c === 125) depth--;
	}
	return max;
}

/** `JSON.parse` with the nesting limit; errors name `source`. */
export function parseJsonText(text: string, source: string): unknown {
	if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
		throw new XcshError("INVALID_JSON", `${source} is nested more than ${MAX_JSON_DEPTH} levels deep (the limit for JSON input)`);
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new XcshError("INVALID_JSON", `${source} is not valid JSON: ${(error as Error).message}`);
	}
}

/** Whether a parsed JSON value is an object (not null, not an array): the one check every reader of JSON input uses. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A backslash escape in JSON text: an escaped backslash (kept, so what follows it is text), a UTF-16
 * surrogate pair (kept), or a surrogate alone (the `\ud83d` `JSON.stringify` writes for half an emoji).
 */
const ESCAPES = /\\(?:\\|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(u[dD][89a-fA-F][0-9a-fA-F]{2}))/g;

/**
 * `text` (an agent's answer, JSON or not) with every lone UTF-16 surrogate — raw, or spelled as a JSON
 * escape — replaced by U+FFFD. A hook's reason cut at a length (`command.slice(0, 40)`) can end in half
 * of an emoji; `JSON.stringify` spells that `\ud83d`, which strict parsers (Rust's serde: Codex,
 * Copilot) reject, and an answer the agent cannot parse is a failed hook there — the call runs.
 */
export function wellFormedAnswer(text: string): string {
	return text.toWellFormed().replace(ESCAPES, (found, lone: string | undefined) => (lone === undefined ? found : "\\ufffd"));
}
