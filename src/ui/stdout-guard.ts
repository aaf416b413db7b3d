/*
 * The terminal UI keeps a status line drawn at the bottom of stderr with the cursor at its end. When
 * stdout is the same terminal, a result printed there would run into that line. Whoever writes to
 * stdout calls {@link aroundStdoutWrite}: every live terminal UI lifts its status line first and draws
 * it again after.
 */

interface Guard {
	lift(): void;
	redraw(): void;
}

const guards = new Set<Guard>();

/** Registers a terminal UI's status line; returns the function that unregisters it. */
export function guardStatusLine(guard: Guard): () => void {
	guards.add(guard);
	return () => guards.delete(guard);
}

/** Runs a write to stdout with every status line lifted around it. */
export async function aroundStdoutWrite(write: () => void | Promise<void>): Promise<void> {
	if (guards.size === 0) return write();
	for (const guard of guards) guard.lift();
	try {
		await write();
	} finally {
		for (const guard of guards) guard.redraw();
	}
}
