/*
 * Text that came from a hook (a deny reason) or from a file anyone can append to (the decision log)
 * is shown in agents' terminals and read line by line. A newline in it forges a second line, an ESC
 * starts a terminal escape sequence (colours, cursor moves, a hyperlink, a retitled window), a bidi
 * mark reorders what the reader sees. So such text is shown as one line with those characters
 * escaped, the way a JSON string spells them: "a\nb\u001b[31m" is shown as `a\nb\u001b[31m`.
 */

/**
 * C0 controls (tab and newline included), DEL, C1 controls, the Unicode line and paragraph separators,
 * and the bidirectional formatting marks (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const escaped = (char: string) => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` as one line: every character of {@link UNSAFE} spelled as its escape (`\n`, `\r`, `\t`,
 * `\u001b`…), everything else as it is. For showing, not for parsing back: a backslash already in
 * the text stays one backslash.
 */
export function oneLine(text: string): string {
	return text.replace(UNSAFE, escaped);
}

/** Whether {@link oneLine} would change `text`. */
export function isOneLine(text: string): boolean {
	return !new RegExp(UNSAFE.source).test(text);
}
