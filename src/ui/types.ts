import type { Theme } from "./theme.ts";

/** Kind of a {@link HookUIContext.notify} message; decides its symbol and colour. */
export type NotifyType = "info" | "warning" | "error";

/**
 * What a hook may show to, and ask of, the person at the terminal. Without a terminal (piped
 * input, CI, the compiled executable run by an agent) hooks get the no-op context, which answers
 * every question with "no answer" — so a hook must treat `undefined`/`false` as "the user declined".
 */
export interface HookUIContext {
	/** Let the user pick one of `options`; the chosen option, or `undefined` when cancelled or there is no UI. */
	select(title: string, options: string[]): Promise<string | undefined>;
	/** Ask a yes/no question; `false` when declined, cancelled or there is no UI. */
	confirm(title: string, message: string): Promise<boolean>;
	/** Ask for one line of text; `undefined` when cancelled or there is no UI, `""` when submitted empty. */
	input(title: string, placeholder?: string): Promise<string | undefined>;
	/** Let the user edit text starting from `prefill`; the result, or `undefined` when cancelled or there is no UI. */
	editor(title: string, prefill?: string): Promise<string | undefined>;
	/** Show a one-line message without waiting for the user; `type` defaults to `"info"`. */
	notify(message: string, type?: NotifyType): void;
	/**
	 * Set this hook's part of the status line under `key`; `undefined` removes it. Parts are shown
	 * sorted by key, sanitized to one line, and truncated to the terminal width (ANSI colours allowed).
	 */
	setStatus(key: string, text: string | undefined): void;
	/**
	 * Hand the screen to a custom component: `factory` receives the theme and a `done` callback and
	 * the promise resolves with the first value passed to `done`. The no-op context never calls
	 * `factory` and resolves `undefined`.
	 */
	custom<T>(factory: (theme: Theme, done: (result: T) => void) => unknown | Promise<unknown>): Promise<T | undefined>;
	/** Replace the text of the agent's input editor (the draft the user is about to send). */
	setEditorText(text: string): void;
	/** The current text of the agent's input editor; `""` when there is none. */
	getEditorText(): string;
	/** Styling for text the hook shows; always defined (a plain, identity theme without a terminal). */
	readonly theme: Theme;
}
