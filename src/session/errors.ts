import type { XcshErrorCode } from "../errors.ts";

/**
 * The codes of the {@link XcshError}s the session store throws: `NOT_A_SESSION` (the file's first line
 * is not a session header), `UNSUPPORTED_VERSION` (a header version this build cannot read),
 * `INVALID_ENTRY` (an entry to append does not match its schema), `UNKNOWN_ENTRY` (a referenced entry id
 * does not exist), `SESSION_CLOSED` (append after close()).
 */
export type SessionErrorCode = Extract<
	XcshErrorCode,
	"NOT_A_SESSION" | "UNSUPPORTED_VERSION" | "INVALID_ENTRY" | "UNKNOWN_ENTRY" | "SESSION_CLOSED"
>;
