/**
 * xcsh-hooks — typed AI-agent hooks for Bun. The package root re-exports every public name,
 * hook types included; `xcsh-hooks/hooks` is the narrower hooks surface.
 */
export * from "./hooks/index.ts";
export * from "./messages.ts";
export { createLogger, type Logger, type LogLevel } from "./logger.ts";
export { expandHome, homeDir, resolvePath, userAgentDir } from "./paths.ts";
export * from "./tools/index.ts";
export * from "./ui/index.ts";
export * from "./session/index.ts";
export * from "./capability/index.ts";
export * from "./discovery/index.ts";
export * from "./trust/index.ts";
