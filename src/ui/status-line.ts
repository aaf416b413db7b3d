// SGR ("Select Graphic Rendition": colours, bold…) is the one escape sequence a status may keep.
const SGR_SPLIT = /(\x1b\[[0-9;:]*m)/;
const SGR_ANY = /\x1b\[[0-9;:]*m/;
const SGR_ALL = /\x1b\[[0-9;:]*m/g;
const ENDS_WITH_RESET = /\x1b\[0*m$/;
const RESET = "\x1b[0m";

// One token of raw status text, tried in this order. Sequences are dropped rather than turned
// into spaces because they never took a column on screen.
const TOKEN = new RegExp(
	[
		String.raw`(\x1b\[[0-9;:]*m)`, // SGR: captured, kept as is
		String.raw`\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]`, // other CSI (cursor moves, erase line…): dropped
		String.raw`\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)`, // OSC/DCS/SOS/PM/APC string (title, link): dropped
		String.raw`\x1b[\x20-\x2f]*[\x30-\x7e]`, // other escapes (ESC 7, ESC c reset, a cut-off "ESC ["): dropped
		String.raw`([\x00-\x1f\x7f-\x9f\u2028\u2029])`, // lone control character (C0, DEL, C1, line/para separator): space
	].join("|"),
	"g",
);

/**
 * Make `text` safe for a one-line status: control characters (`\r`, `\n`, `\t`, the rest of C0 and
 * C1, DEL, U+2028/U+2029) become spaces; ANSI SGR sequences (`ESC [ … m`) survive intact; every other
 * escape sequence is removed whole; runs of spaces collapse to one and the result is trimmed. SGR
 * sequences between spaces do not stop them collapsing, and SGR at either end is kept while the
 * spaces next to it are trimmed.
 */
export function sanitizeStatusText(text: string): string {
	const cleaned = text.replace(TOKEN, (_match, sgr: string | undefined, control: string | undefined) => sgr ?? (control ? " " : ""));
	return collapseSpaces(cleaned);
}

function collapseSpaces(text: string): string {
	const parts = text.split(SGR_SPLIT); // odd indices are SGR sequences
	let out = "";
	let held = ""; // SGR met after a space: it goes after that space, once more text follows
	let space = false;
	let started = false;
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i] ?? "";
		if (i % 2 === 1) {
			if (space) held += part;
			else out += part;
			continue;
		}
		const words = part.split(/ +/);
		for (let j = 0; j < words.length; j++) {
			if (j > 0) space = true;
			const word = words[j] ?? "";
			if (word === "") continue;
			out += (space && started ? " " : "") + held + word;
			held = "";
			space = false;
			started = true;
		}
	}
	return out + held;
}

/**
 * Columns `text` takes in a terminal: escape sequences (SGR included) and control characters count 0,
 * East Asian wide characters and emoji count 2, a grapheme cluster (e.g. a ZWJ emoji family) counts once.
 */
export function visibleWidth(text: string): number {
	return Bun.stringWidth(text);
}

let segmenter: Intl.Segmenter | undefined;

/**
 * Cut `text` so its visible width, `ellipsis` included, is at most `width`. Text that already fits
 * is returned unchanged. Whole grapheme clusters are kept or dropped, so a wide character that would
 * cross the limit is dropped (the result may then be one column short). SGR sequences in the kept
 * part are kept; when `text` contains any SGR, `\x1b[0m` is emitted before the ellipsis so colours
 * never leak past the cut. A width below 1 gives `""`; an ellipsis wider than `width` is itself cut.
 * Sanitize first: other escape sequences are not recognised here.
 */
export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
	const max = Math.floor(width);
	if (!(max > 0)) return "";
	if (visibleWidth(text) <= max) return text;
	const ellipsisWidth = visibleWidth(ellipsis);
	if (ellipsisWidth > max) return truncateToWidth(ellipsis, max, "");
	const budget = max - ellipsisWidth;
	segmenter ??= new Intl.Segmenter();
	const parts = text.split(SGR_SPLIT);
	let out = "";
	let pending = ""; // SGR kept only if some text after it is kept
	let used = 0;
	cut: for (let i = 0; i < parts.length; i++) {
		const part = parts[i] ?? "";
		if (i % 2 === 1) {
			pending += part;
			continue;
		}
		for (const { segment } of segmenter.segment(part)) {
			const w = Bun.stringWidth(segment);
			if (used + w > budget) break cut;
			out += pending + segment;
			pending = "";
			used += w;
		}
	}
	return out + (SGR_ANY.test(text) ? RESET : "") + ellipsis;
}

type StatusMap = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

const byKey = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

function entriesOf(statuses: StatusMap): Array<[string, string]> {
	const map = statuses as ReadonlyMap<string, string>;
	return typeof map.entries === "function" && typeof map.get === "function"
		? [...map.entries()]
		: Object.entries(statuses as Record<string, string>);
}

/**
 * One status line from per-key values: sorted by key (plain code-unit order, not locale order),
 * each value sanitized ({@link sanitizeStatusText}), values with no visible text skipped, joined with
 * one space, truncated to `width` with `…`. A value that sets SGR without resetting it is followed by
 * `\x1b[0m`, so one hook's colour never bleeds into the next value or into later output.
 */
export function renderStatusLine(statuses: StatusMap, width: number): string {
	const parts: string[] = [];
	for (const [, value] of entriesOf(statuses).sort(byKey)) {
		if (typeof value !== "string") continue; // a JavaScript caller's stray `undefined`
		const clean = sanitizeStatusText(value);
		if (clean.replace(SGR_ALL, "") === "") continue;
		parts.push(SGR_ANY.test(clean) && !ENDS_WITH_RESET.test(clean) ? clean + RESET : clean);
	}
	return truncateToWidth(parts.join(" "), width);
}

/** Per-key status values, as `setStatus` keeps them. */
export interface StatusLine {
	/** Set the value under `key`; `undefined` removes the key. */
	set(key: string, text: string | undefined): void;
	/** The line to show in `width` columns (see {@link renderStatusLine}). */
	render(width: number): string;
	/** The current `[key, raw text]` pairs, sorted by key. */
	entries(): Array<[key: string, text: string]>;
}

/** An empty {@link StatusLine}. */
export function createStatusLine(): StatusLine {
	const values = new Map<string, string>();
	return {
		set(key, text) {
			if (text === undefined) values.delete(key);
			else values.set(key, text);
		},
		render: (width) => renderStatusLine(values, width),
		entries: () => [...values].sort(byKey),
	};
}
