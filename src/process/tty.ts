type TtyBinding = { isTTY(fd: number): boolean };
let ttyBinding: TtyBinding | undefined;

/**
 * Whether `fd` is a terminal. Asks the runtime's `tty_wrap` binding, which `node:tty` itself uses:
 * loading `node:tty` builds its stream classes and costs ≈3 ms of every start-up (docs/contract.md#performance-budgets), and
 * `process.stdin.isTTY` more. Falls back to `node:tty` where the binding is missing.
 */
export function isTerminal(fd: number): boolean {
	try {
		ttyBinding ??= (process as unknown as { binding(name: string): TtyBinding }).binding("tty_wrap");
		return ttyBinding.isTTY(fd);
	} catch {
		return (require("node:tty") as typeof import("node:tty")).isatty(fd);
	}
}
