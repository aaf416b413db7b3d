/**
 * The one error type xcsh-hooks throws: an `Error` with a stable `code` a program can switch on (what
 * citty's `CLIError` does), and a message that names what is wrong and, where there is something to
 * do, what to do. Only `ToolBlockedError` (src/hooks/tool-wrapper.ts) subclasses it, because the
 * hook API promises a distinct class for a blocked call. The codes are listed here so a caller sees
 * every one in one place; new codes are added here, never renamed (they are part of the API).
 *
 * This file is a leaf: it imports nothing, so any layer may use it.
 */

/** Every code an {@link XcshError} may carry, grouped by where it comes from. */
export type XcshErrorCode =
	// a hook and its run
	| "TOOL_BLOCKED" // a hook blocked a tool call (ToolBlockedError)
	| "HOOK_EXIT" // a hook called process.exit
	| "HOOK_LOAD" // a hook file could not be loaded
	| "HOOK_FAILED" // a shell hook or an agent's own hook ended badly
	| "HOOK_TIMEOUT" // a handler or a shell hook did not finish in time
	| "HOOK_CHANGED" // a hook changed since it was approved
	| "IMPORT_REFUSED" // an approved hook imported a file approval does not cover
	| "IMPORT_GRAPH" // a hook's imports cannot be approved (too many, or a file that cannot be served)
	// files and input
	| "NOT_A_REGULAR_FILE" // a directory, FIFO, socket or device where a file belongs
	| "FILE_UNREADABLE" // a file that exists could not be read
	| "FILE_NOT_FOUND" // a file that should exist does not
	| "WRITE_FAILED" // a file could not be written
	| "INVALID_JSON" // text that should be JSON is not (or not UTF-8, or nested too deep)
	| "INVALID_OPTION" // an option or argument of a function has a wrong value
	| "INVALID_INPUT" // input that does not fit: a tool's input, a payload on stdin, a scripted answer
	| "INVALID_RESULT" // a handler returned a result its event does not accept
	| "UNKNOWN_NAME" // an agent, tool, command, capability or provider that does not exist
	| "ALREADY_REGISTERED" // an agent, capability or provider registered twice
	| "UNSAFE_PERMISSIONS" // a file or folder others may write or read, or that another user owns
	// the session store
	| "NOT_A_SESSION"
	| "UNSUPPORTED_VERSION"
	| "INVALID_ENTRY"
	| "UNKNOWN_ENTRY"
	| "SESSION_CLOSED"
	// trust and team lists
	| "TRUST_FILE_CORRUPT"
	| "TRUST_FILE_UNREADABLE"
	| "HOOK_UNREADABLE"
	| "HOOK_NOT_A_FILE"
	| "HOOK_UNPINNABLE"
	| "TEAM_LIST_INVALID"
	// install / uninstall: a config file the command refused (never changed when one is thrown)
	| "INSTALL_PARSE"
	| "INSTALL_SHAPE"
	| "INSTALL_NOT_A_FILE"
	| "INSTALL_IO"
	| "INSTALL_USAGE"
	// serve: answered as `{id, error: {code, message}}` with the wire code (see serveWireCode)
	| "SERVE_PARSE_ERROR"
	| "SERVE_INVALID_REQUEST"
	| "SERVE_INVALID_PARAMS"
	| "SERVE_METHOD_NOT_FOUND"
	| "SERVE_COMMAND_NOT_FOUND"
	| "SERVE_HANDLER_ERROR"
	| "SERVE_RELOAD_FAILED"
	| "SERVE_SHUTTING_DOWN"
	| "SERVE_INTERNAL_ERROR"
	// the shell guard
	| "GUARD_UNREADABLE_COMMAND" // the analyzer refused to guess what a command line does
	| "GUARD_OPTIONS" // createShellGuard was given options it cannot use
	| "ABORTED" // a run was cancelled by its signal or interrupted
	| "CONNECTION_FAILED" // the served socket closed or answered something that is not an answer
	// the CLI
	| "USAGE" // a command was called wrongly; the message says how to call it
	| "COMMAND_FAILED" // a command could not do its job; the message says why
	// a broken promise inside xcsh-hooks itself: a bug to report
	| "INTERNAL";

/** What an {@link XcshError} may carry besides its code and message. */
export interface XcshErrorOptions {
	/** The error that led to this one. */
	cause?: unknown;
	/** The file at fault, when there is one. */
	file?: string;
	/** A short machine-readable detail: the errno code, the guard rule id, the exit code a hook asked for. */
	detail?: string;
	/** The exit code a CLI command ends with when this error ends it (default 2, a usage error). */
	exitCode?: number;
}

/** An error of xcsh-hooks: `code` says which rule was broken, `message` what is wrong and what to do. */
export class XcshError extends Error {
	override name = "XcshError";
	readonly code: XcshErrorCode;
	readonly file?: string;
	readonly detail?: string;
	readonly exitCode?: number;
	constructor(code: XcshErrorCode, message: string, options: XcshErrorOptions = {}) {
		super(message, options.cause === undefined ? undefined : { cause: options.cause });
		this.code = code;
		if (options.file !== undefined) this.file = options.file;
		if (options.detail !== undefined) this.detail = options.detail;
		if (options.exitCode !== undefined) this.exitCode = options.exitCode;
	}
}

/** Whether `error` is an {@link XcshError}, and (with `codes`) one of those codes. */
export function isXcshError(error: unknown, ...codes: XcshErrorCode[]): error is XcshError {
	return error instanceof XcshError && (codes.length === 0 || codes.includes(error.code));
}

/** The reason of a block that gave none. */
export const DEFAULT_BLOCK_REASON = "Tool execution was blocked by a hook";

/**
 * Why a tool call did not run: a hook blocked it (code `TOOL_BLOCKED`; `message` and `reason` are the
 * hook's reason). The one subclass of {@link XcshError}: the hook API promises a class of its own for it.
 */
export class ToolBlockedError extends XcshError {
	override name = "ToolBlockedError";
	override readonly code = "TOOL_BLOCKED";
	constructor(
		/** The hook's reason, or why the call was blocked. */
		readonly reason: string,
		/** Path of the hook that blocked (or failed), when known. */
		readonly hookPath?: string,
	) {
		super("TOOL_BLOCKED", reason || DEFAULT_BLOCK_REASON);
	}
}
