/** Why a session operation failed. */
export type SessionErrorCode =
	| "NOT_A_SESSION" // the file's first line is not a session header
	| "UNSUPPORTED_VERSION" // the header has a version this build cannot read
	| "INVALID_ENTRY" // an entry to append does not match its schema
	| "UNKNOWN_ENTRY" // a referenced entry id does not exist
	| "SESSION_CLOSED"; // append after close()

/** Error thrown by the session store; `code` says which rule was broken. */
export class SessionError extends Error {
	override name = "SessionError";
	constructor(
		readonly code: SessionErrorCode,
		message: string,
	) {
		super(message);
	}
}
