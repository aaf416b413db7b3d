export { type Agent, type AgentEvent, type AgentSpec, agentSpec, installableAgents, isAgent, type Scope } from "./agents.ts";
export { bridgeCommand, defaultCommandPrefix, selfArgv, shellQuote } from "./bridge-command.ts";
export { INSTALL_MARKER } from "./marker.ts";
export { isBridgeArgv, isBridgeCommand, shellWords } from "./own-entry.ts";
export { addEntries, type EntryChange, hasEntries, removeEntries } from "./entries.ts";
export { installError, isInstallError, type InstallErrorCode } from "./errors.ts";
export {
	type BridgeStatus,
	bridgeConfigFile,
	bridgeStatus,
	type InstallOptions,
	type InstallResult,
	installBridge,
	uninstallBridge,
} from "./install.ts";
export { installManaged, MANAGED_RECORD, type ManagedOptions, managedAgents, managedConfigFile, uninstallManaged } from "./managed.ts";
