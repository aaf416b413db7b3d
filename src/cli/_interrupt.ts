import { XcshError } from "../errors.ts";
import { constants } from "node:os";
import { exitProcess } from "../process/exit-guard.ts";
import { type EndingSignal, onEndingSignal } from "../process/signals.ts";

/** What {@link onInterrupt} hands back. */
export interface Interrupt {
	/** Aborted on the first signal that would end the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1…). */
	readonly signal: AbortSignal;
	/** `128 + n` of the signal that arrived (130 for Ctrl-C, 143 for SIGTERM), else `undefined`. */
	readonly code: number | undefined;
	/** Removes the handlers. */
	dispose(): void;
}

/**
 * Turns every signal that would end the process (src/process/signals.ts) into an abort, so what runs can
 * stop its children (a tool's process group) before the command ends with `128 + n`: a signal ending
 * the process by itself runs no `exit` listener and would leave the group running. A second signal
 * ends the process at once, with the same code; the `exit` listeners still SIGKILL any process group
 * left (see exec-command.ts).
 */
export function onInterrupt(): Interrupt {
	const controller = new AbortController();
	let code: number | undefined;
	const dispose = onEndingSignal((signal: EndingSignal) => {
		if (code !== undefined) exitProcess(code);
		code = 128 + (constants.signals[signal] ?? 0);
		controller.abort(new XcshError("ABORTED", `interrupted by ${signal}`));
	});
	return {
		signal: controller.signal,
		get code() {
			return code;
		},
		dispose,
	};
}
