import { isXcshError, XcshError } from "../errors.ts";

/**
 * Why the analyzer refused a command line: an `XcshError` `GUARD_UNREADABLE_COMMAND` whose `detail` is
 * the guard rule id it reports (`parse/error`, `input/too-deep`, `input/too-many`) and whose message is one line.
 */
export function unreadableCommand(rule: string, message: string): XcshError {
	return new XcshError("GUARD_UNREADABLE_COMMAND", message, { detail: rule });
}

/** Whether `error` is a refusal of {@link unreadableCommand}. */
export const isUnreadableCommand = (error: unknown): error is XcshError & { detail: string } =>
	isXcshError(error, "GUARD_UNREADABLE_COMMAND");
