import { readFileSync } from "node:fs";
import type { SessionManager } from "../session/session-manager.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import type { TranscriptMessage } from "../agents/_shared/jsonl.ts";
import { BridgeSessionView } from "./transcript-view.ts";
import type { AgentBridge, Payload } from "../agents/_shared/bridge-types.ts";

/**
 * The agent's transcript as messages. A transcript that is missing or cannot be read (or an agent
 * whose format is not known) is an empty history and one warning, never an error: the agent may
 * not have written it yet (Claude writes it asynchronously).
 */
export function readAgentTranscript(agent: AgentBridge, payload: Payload, warn: (line: string) => void): TranscriptMessage[] {
	const path = agent.transcript?.(payload);
	if (!path || !agent.readTranscript) return [];
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		const code = (error as { code?: string }).code;
		warn(`transcript ${path} cannot be read (${code ?? (error as Error).message}); ctx.sessionManager shows the hooks' own entries only`);
		return [];
	}
	try {
		return agent.readTranscript(text);
	} catch (error) {
		warn(
			`transcript ${path} could not be read as a ${agent.name} transcript (${(error as Error).message}); ctx.sessionManager shows the hooks' own entries only`,
		);
		return [];
	}
}

/** The session hooks see under a bridge: the agent's transcript (read on first use) with their own session file. */
export function agentSessionView(
	open: () => SessionManager,
	agent: AgentBridge,
	payload: Payload,
	warn: (line: string) => void,
): ReadonlySessionManager {
	return new BridgeSessionView(open, () => readAgentTranscript(agent, payload, warn));
}
