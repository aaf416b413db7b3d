/** Reading one agent call: its payload from stdin, and which of the agent's events it is. */
import type { AgentBridge } from "../agents/_shared/bridge-types.ts";
import { decodeUtf8, parseJsonText } from "../json.ts";
import { oneLine } from "../one-line.ts";

/** The agent's hook JSON from stdin, or why it cannot be read (not UTF-8, empty, not JSON, too deep). */
export function parsePayload(stdin: Uint8Array | undefined | Error): { value: unknown } | { error: string } {
	if (stdin instanceof Error) return { error: stdin.message };
	if (stdin === undefined) return { error: "no payload: stdin is a terminal, expected the agent's hook JSON" };
	let text: string;
	try {
		text = decodeUtf8(stdin, "stdin");
	} catch (error) {
		return { error: (error as Error).message };
	}
	if (!text.trim()) return { error: "stdin is empty, expected the agent's hook JSON" };
	try {
		return { value: parseJsonText(text, "stdin") }; // with the nesting limit of every untrusted input
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/**
 * The agent's event name of a call. `--event` names it (the user's own command line: `bridge gemini
 * --event BeforeTool` runs Qwen's Claude-named payloads as Gemini's). A hint that is only a fallback
 * (`serve --http`'s `?event=`, see `BridgeOptions.eventIsFallback` in run.ts) names only the event of a
 * payload that names none; one naming another event than the payload is a mismatch.
 */
export function eventOf(
	agent: AgentBridge,
	payload: unknown,
	options: { event?: string | undefined; eventIsFallback?: boolean | undefined },
): { name: string | undefined } | { mismatch: string } {
	if (!options.eventIsFallback || options.event === undefined) return { name: agent.eventName(payload, options.event) };
	const own = (agent.payloadEvent ?? ((p: unknown) => agent.eventName(p, undefined)))(payload);
	if (own === undefined) return { name: agent.eventName(payload, options.event) };
	if (own === options.event) return { name: own };
	return {
		mismatch: `the URL's ?event=${oneLine(options.event)} does not match the event the payload names (${oneLine(own)}); the payload's event is the call's, so drop ?event= or correct it`,
	};
}
