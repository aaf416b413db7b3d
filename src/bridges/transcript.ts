import { readFileSync } from "node:fs";
import type { Host } from "../host/host.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import type { TranscriptMessage } from "./_jsonl.ts";
import { readClaudeTranscript } from "./transcript-claude.ts";
import { readCodexTranscript } from "./transcript-codex.ts";
import { readGeminiTranscript } from "./transcript-gemini.ts";
import { BridgeSessionView } from "./transcript-view.ts";
import type { AgentBridge, Payload } from "./types.ts";

/**
 * The agent's transcript as messages. A transcript that is missing or cannot be read (or an agent
 * whose format is not known) is an empty history and one warning, never an error: the agent may
 * not have written it yet (Claude writes it asynchronously).
 */
export function readAgentTranscript(agent: AgentBridge, payload: Payload, warn: (line: string) => void): TranscriptMessage[] {
	const path = agent.transcript?.(payload);
	if (!path || !agent.transcriptFormat) return [];
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		const code = (error as { code?: string }).code;
		warn(`transcript ${path} cannot be read (${code ?? (error as Error).message}); ctx.sessionManager shows the hooks' own entries only`);
		return [];
	}
	try {
		switch (agent.transcriptFormat) {
			case "claude":
				return readClaudeTranscript(text, agent.tools);
			case "codex":
				return readCodexTranscript(text);
			case "gemini":
				return readGeminiTranscript(text, agent.tools);
		}
	} catch (error) {
		warn(`transcript ${path} could not be read as a ${agent.transcriptFormat} transcript (${(error as Error).message}); ctx.sessionManager shows the hooks' own entries only`);
		return [];
	}
}

/**
 * Gives hooks (`ctx.sessionManager`) the agent's transcript together with their own session file.
 *
 * TODO(lead): `createHost` builds its own session view; this swaps the runner's before the first
 * event. Replace it with a host option, `sessionView?: (open: () => SessionManager) => ReadonlySessionManager`
 * (called with the host's `openSession`, its result passed to `new HookRunner` instead of the LazySession),
 * and delete the swap below.
 */
export function attachSessionView(host: Host, agent: AgentBridge, payload: Payload, warn: (line: string) => void): ReadonlySessionManager {
	const view = new BridgeSessionView(host.session, () => readAgentTranscript(agent, payload, warn));
	const runner = host.runner as unknown as { sessionManager: ReadonlySessionManager; context: unknown };
	runner.sessionManager = view;
	runner.context = undefined; // rebuilt with the view on the next event
	return view;
}
