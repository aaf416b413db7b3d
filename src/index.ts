/**
 * xcsh-hooks — typed AI-agent hooks for Bun. The package root re-exports every public name,
 * hook types included; `xcsh-hooks/hooks` is the narrower hooks surface.
 */
export * from "./hooks/index.ts";
export * from "./messages.ts";
export { createLogger, type Logger, type LogLevel } from "./logger.ts";
export { expandHome, homeDir, resolvePath, userAgentDir } from "./paths.ts";
