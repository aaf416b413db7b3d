import { constants } from "node:os";
import { exitProcess } from "../host/exit-guard.ts";

/** What {@link onInterrupt} hands back. */
export interface Interrupt {
	/** Aborted on the first SIGINT, SIGTERM or SIGHUP. */
	readonly signal: AbortSignal;
	/** `128 + n` of the signal that arrived (130 for Ctrl-C, 143 for SIGTERM), else `undefined`. */
	readonly code: number | undefined;
	/** Removes the handlers. */
	dispose(): void;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Turns SIGINT, SIGTERM and SIGHUP into an abort, so what runs can stop its children (a tool's process
 * group) before the command ends with `128 + n`. A second signal ends the process at once, with the
 * same code; the `exit` listeners still SIGKILL any process group left (see exec-command.ts).
 */
export function onInterrupt(): Interrupt {
	const controller = new AbortController();
	let code: number | undefined;
	const handler = (signal: (typeof SIGNALS)[number]) => {
		if (code !== undefined) exitProcess(code);
		code = 128 + (constants.signals[signal] ?? 0);
		controller.abort(new Error(`interrupted by ${signal}`));
	};
	for (const signal of SIGNALS) process.on(signal, handler);
	return {
		signal: controller.signal,
		get code() {
			return code;
		},
		dispose: () => {
			for (const signal of SIGNALS) process.off(signal, handler);
		},
	};
}
