/*
 * A reader that stops reading (`xcsh-hooks schema | head -1`) is not an error: like gh and bun, the
 * CLI then says nothing and exits with the code its command decided. Bun ignores SIGPIPE, so such a
 * write fails with EPIPE; every write to stdout and stderr goes through {@link writeOrDrop}, which
 * turns that into "this stream is closed, drop its later output". The exit code is never changed by
 * it: a blocked `emit tool_call` still exits 2 when its reader went away (a closed pipe must not read
 * as "allow"), and `schema | head -1` exits 0 because `schema` succeeded.
 */

const closed = new Set<number>();

/** Whether `error` is a write to a pipe whose reader is gone. */
export function isClosedPipe(error: unknown): boolean {
	return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EPIPE";
}

/**
 * Runs `write` (to stream `fd`: 1 for stdout, 2 for stderr) unless that stream was found closed;
 * an EPIPE marks it closed and is swallowed, any other error is thrown.
 */
export async function writeOrDrop(fd: 1 | 2, write: () => unknown): Promise<void> {
	if (closed.has(fd)) return;
	try {
		await write();
	} catch (error) {
		if (!isClosedPipe(error)) throw error;
		closed.add(fd);
	}
}

/** {@link writeOrDrop} for a synchronous write (a signal handler's last answer, `serve`'s lines). */
export function writeOrDropSync(fd: 1 | 2, write: () => void): void {
	if (closed.has(fd)) return;
	try {
		write();
	} catch (error) {
		if (!isClosedPipe(error)) throw error;
		closed.add(fd);
	}
}
