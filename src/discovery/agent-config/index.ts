export { approvalContent, approvalHash, canonicalJson, commandWords, namedScripts } from "./approval.ts";
export { AGENT_CONTEXT_TYPE, type AgentHookFactoryOptions, createAgentHookFactory } from "./factory.ts";
export { type AgentHookToLoad, loadAgentHooks } from "./load.ts";
export { type MatchMode, matches } from "../../agents/_shared/matcher.ts";
export { agentConfigProvider, agentHookPath, agentHookProviders } from "./providers.ts";
export { type AgentConfigFile, type AgentConfigRead, readAgentConfig } from "./read-config.ts";
export { commandArgv } from "./run-command.ts";
export type { AgentHookEntry, AgentHookTarget, AgentId } from "../../agents/_shared/entry.ts";
