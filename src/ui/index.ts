export { createNoOpUIContext } from "./no-op.ts";
export {
	createStatusLine,
	renderStatusLine,
	sanitizeStatusText,
	type StatusLine,
	truncateToWidth,
	visibleWidth,
} from "./status-line.ts";
export { CLEAR_LINE, createTerminalUIContext, type PromptFn, type TerminalUIContextOptions } from "./terminal.ts";
export { createAnsiTheme, createPlainTheme, type Theme, type ThemeColor, type ThemeSymbols } from "./theme.ts";
export type { HookUIContext, NotifyType } from "./types.ts";
