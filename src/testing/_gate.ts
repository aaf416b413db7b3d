import type { ApprovedSource } from "../hooks/_approved.ts";

/**
 * The key (`Symbol.for`) under which the preload of `xcsh-hooks test` offers its trust gate to the
 * harness; absent in any other run (plain `bun test`), where the harness loads hooks as it always did.
 */
export const TEST_GATE_SYMBOL = "xcsh-hooks.test-gate";

/** The trust gate of an `xcsh-hooks test` run, as the harness sees it. */
interface TestGate {
	/** The approved bytes of a guarded file; `undefined` for a file the gate does not guard; throws when refused. */
	approvedSource(path: string): ApprovedSource | undefined;
}

/**
 * Approved sources for loading `path` under `xcsh-hooks test`: a project shell hook runs exactly the
 * approved bytes (a process start passes no import gate), and an unapproved one throws, naming the
 * `trust approve` command. Modules need nothing here: the gate checks them as Bun loads them.
 */
export function gatedSources(path: string, isModule: boolean): Map<string, ApprovedSource> | undefined {
	const gate = (globalThis as Record<symbol, TestGate | undefined>)[Symbol.for(TEST_GATE_SYMBOL)];
	if (!gate || isModule) return undefined;
	const source = gate.approvedSource(path);
	return source ? new Map([[path, source]]) : undefined;
}
