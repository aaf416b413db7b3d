import { readBoundedText } from "../fs/read-bounded.ts";
import type { SessionManager } from "../session/session-manager.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import type { TranscriptMessage } from "../agents/_shared/jsonl.ts";
import { BridgeSessionView } from "./transcript-view.ts";
import type { AgentBridge, Payload } from "../agents/_shared/bridge-types.ts";

/**
 * The largest transcript a bridge reads: 64 MiB, about 0.2 s to read and map on a laptop. A larger
 * one is shown as empty (with a warning), not cut: a history missing its start could mislead a hook
 * as much as none, and an empty one says so.
 */
export const TRANSCRIPT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The agent's transcript as messages. A transcript that is missing or cannot be read (or an agent
 * whose format is not known) is an empty history and one warning, never an error: the agent may
 * not have written it yet (Claude writes it asynchronously). The path comes from the payload, so it
 * is read only as a regular file of at most {@link TRANSCRIPT_MAX_BYTES}, never blocking on a FIFO
 * or a device (see `readBoundedText`): a hook reading `ctx.sessionManager` cannot hang the call past
 * its deadline or its signals.
 */
export function readAgentTranscript(agent: AgentBridge, payload: Payload, warn: (line: string) => void): TranscriptMessage[] {
	const path = agent.transcript?.(payload);
	if (!path || !agent.readTranscript) return [];
	const read = readBoundedText(path, { maxBytes: TRANSCRIPT_MAX_BYTES });
	if (!read.ok) {
		warn(`transcript ${path} cannot be read (${read.reason}); ctx.sessionManager shows the hooks' own entries only`);
		return [];
	}
	const { text } = read;
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
