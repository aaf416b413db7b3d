import { XcshError } from "../errors.ts";
import { createPlainTheme } from "../ui/theme.ts";
import type { HookUIContext, NotifyType } from "../ui/types.ts";

type Answer<T, A extends unknown[]> = T | ((...args: A) => T | undefined | Promise<T | undefined>);

/**
 * Scripted answers to the questions a hook asks through `ctx.ui`. A value answers every question of
 * that kind; a function answers each one from its arguments. A kind left out gets the no-op answer
 * (`false` for `confirm`, `undefined` otherwise), as a hook would see without a terminal.
 */
export interface ScriptedUIAnswers {
	/** Answer to `ctx.ui.confirm(title, message)`. */
	confirm?: boolean | ((title: string, message: string) => boolean | Promise<boolean>);
	/** Answer to `ctx.ui.select(title, options)`; must be one of `options`. */
	select?: Answer<string, [title: string, options: string[]]>;
	/** Answer to `ctx.ui.input(title, placeholder)`. */
	input?: Answer<string, [title: string, placeholder: string | undefined]>;
	/** Answer to `ctx.ui.editor(title, prefill)`. */
	editor?: Answer<string, [title: string, prefill: string | undefined]>;
}

/** One question a hook asked, with the answer it got. */
export interface RecordedPrompt {
	kind: "select" | "confirm" | "input" | "editor";
	title: string;
	/** `confirm`'s message. */
	message?: string;
	/** `select`'s options. */
	options?: string[];
	/** `input`'s placeholder. */
	placeholder?: string | undefined;
	/** `editor`'s prefill. */
	prefill?: string | undefined;
	answer: string | boolean | undefined;
}

/** One `ctx.ui.notify` call. */
export interface RecordedNotification {
	message: string;
	type: NotifyType;
}

/** What a {@link ScriptedUI} has recorded so far. */
export interface UIRecording {
	prompts: RecordedPrompt[];
	notifications: RecordedNotification[];
	/** Current status values by key (cleared keys removed). */
	statuses: Map<string, string>;
	/** Current text of the agent's input editor. */
	editorText: string;
}

/** A scripted {@link HookUIContext} and what it recorded. */
export interface ScriptedUI {
	ui: HookUIContext;
	recording: UIRecording;
}

/** The scripted value, or what the scripted function returns for this prompt's arguments. */
async function answer(scripted: unknown, args: unknown[]): Promise<unknown> {
	return typeof scripted === "function" ? await scripted(...args) : scripted;
}

/** A UI context that answers from `answers` and records every prompt, notification, status and editor change. */
export function createScriptedUIContext(answers: ScriptedUIAnswers = {}): ScriptedUI {
	const theme = createPlainTheme();
	const recording: UIRecording = { prompts: [], notifications: [], statuses: new Map(), editorText: "" };
	const record = <T extends RecordedPrompt["answer"]>(prompt: Omit<RecordedPrompt, "answer">, value: T): T => {
		recording.prompts.push({ ...prompt, answer: value });
		return value;
	};

	const ui: HookUIContext = {
		async select(title, options) {
			const value = (await answer(answers.select, [title, options])) as string | undefined;
			if (value !== undefined && !options.includes(value))
				throw new XcshError("INVALID_INPUT", `Scripted select answer "${value}" for "${title}" is not one of: ${options.join(", ")}`);
			return record({ kind: "select", title, options }, value);
		},
		async confirm(title, message) {
			const value = (await answer(answers.confirm, [title, message])) === true;
			return record({ kind: "confirm", title, message }, value);
		},
		async input(title, placeholder) {
			const value = (await answer(answers.input, [title, placeholder])) as string | undefined;
			return record({ kind: "input", title, placeholder }, value);
		},
		async editor(title, prefill) {
			const value = (await answer(answers.editor, [title, prefill])) as string | undefined;
			return record({ kind: "editor", title, prefill }, value);
		},
		notify(message, type = "info") {
			recording.notifications.push({ message, type });
		},
		setStatus(key, text) {
			if (text === undefined) recording.statuses.delete(key);
			else recording.statuses.set(key, text);
		},
		custom: async () => undefined,
		setEditorText(text) {
			recording.editorText = text;
		},
		getEditorText: () => recording.editorText,
		get theme() {
			return theme;
		},
	};
	return { ui, recording };
}
