import { createPlainTheme } from "./theme.ts";
import type { HookUIContext } from "./types.ts";

/**
 * The UI a hook gets when nobody is at a terminal: questions resolve "no answer" (`undefined`,
 * or `false` for `confirm`), `custom` never calls its factory, output is discarded, the editor
 * text is always `""`, and `theme` is a plain identity theme.
 */
export function createNoOpUIContext(): HookUIContext {
	const theme = createPlainTheme();
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		notify: () => {},
		setStatus: () => {},
		custom: async () => undefined,
		setEditorText: () => {},
		getEditorText: () => "",
		get theme() {
			return theme;
		},
	};
}
