/** Log levels in increasing severity. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/** A small leveled logger; hooks get one as `pi.logger`. */
export interface Logger {
	debug(message: string, ...args: unknown[]): void;
	info(message: string, ...args: unknown[]): void;
	warn(message: string, ...args: unknown[]): void;
	error(message: string, ...args: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

function threshold(): number {
	const level = process.env.XCSH_HOOKS_LOG as LogLevel | undefined;
	return level && level in RANK ? RANK[level] : RANK.warn;
}

/**
 * A logger writing `[scope] level: message` lines to stderr. The level comes from
 * `XCSH_HOOKS_LOG` (default `warn`), read per call; stderr is only touched when a line is written,
 * so an unused logger costs nothing at start-up. stdout is never used: it carries the CLI's JSON.
 */
export function createLogger(scope: string): Logger {
	const log =
		(level: Exclude<LogLevel, "silent">) =>
		(message: string, ...args: unknown[]) => {
			if (RANK[level] < threshold()) return;
			console.error(`[${scope}] ${level}: ${message}`, ...args);
		};
	return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
