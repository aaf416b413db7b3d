/** Semantic colour names a hook styles text with; each theme decides what they look like. */
export type ThemeColor = "accent" | "muted" | "dim" | "text" | "success" | "error" | "warning" | "info";

/** Glyphs for the usual message kinds, so hooks need not pick their own. */
export interface ThemeSymbols {
	readonly success: string;
	readonly error: string;
	readonly warning: string;
	readonly info: string;
	readonly bullet: string;
}

/** Styling a hook applies to text it shows through the UI context. */
export interface Theme {
	/** `text` in the foreground colour `color`. */
	fg(color: ThemeColor, text: string): string;
	/** `text` on the background colour `color`. */
	bg(color: ThemeColor, text: string): string;
	/** `text` in bold. */
	bold(text: string): string;
	/** `text` in italics. */
	italic(text: string): string;
	/** `text` underlined. */
	underline(text: string): string;
	/** `text` dimmed (faint). */
	dim(text: string): string;
	/** Glyphs for success, error, warning, info and list bullets. */
	readonly symbols: ThemeSymbols;
}

const SYMBOLS: ThemeSymbols = Object.freeze({ success: "✓", error: "✗", warning: "!", info: "i", bullet: "•" });

const identity = (text: string): string => text;

/** A theme that styles nothing: every method returns `text` unchanged. For no-op UIs, logs and tests. */
export function createPlainTheme(): Theme {
	return {
		fg: (_color, text) => text,
		bg: (_color, text) => text,
		bold: identity,
		italic: identity,
		underline: identity,
		dim: identity,
		symbols: SYMBOLS,
	};
}

// SGR foreground codes; the background code is the foreground code + 10.
const FG: Record<ThemeColor, number> = {
	accent: 36, // cyan
	muted: 90, // bright black (grey)
	dim: 90,
	text: 39, // the terminal's default colour
	success: 32,
	error: 31,
	warning: 33,
	info: 34,
};

// Own keys only: `"toString"` from a JavaScript hook must not reach Object.prototype.
const fgCode = (color: string): number | undefined => (Object.hasOwn(FG, color) ? FG[color as ThemeColor] : undefined);

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

/**
 * A theme that styles with ANSI SGR sequences. Each span ends with the reset of its own attribute
 * (39 foreground, 49 background, 22 bold/dim, 23 italic, 24 underline) rather than a full reset, so
 * `bold(fg("error", "x") + " y")` keeps " y" bold. Nesting two spans of the same attribute ends both
 * at the inner reset. A colour name outside {@link ThemeColor} (a typo in a JavaScript hook) leaves
 * the text unstyled, as the plain theme would, instead of emitting a broken sequence.
 */
export function createAnsiTheme(): Theme {
	return {
		fg: (color, text) => {
			const code = fgCode(color);
			return code === undefined ? text : sgr(code, 39)(text);
		},
		bg: (color, text) => {
			const code = fgCode(color);
			if (code === undefined) return text;
			return sgr(code === 39 ? 49 : code + 10, 49)(text);
		},
		bold: sgr(1, 22),
		italic: sgr(3, 23),
		underline: sgr(4, 24),
		dim: sgr(2, 22),
		symbols: SYMBOLS,
	};
}
