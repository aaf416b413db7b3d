import { NODE_CLIENT_IMPORTS, nodeClientSource } from "../_shared/node-client.ts";
import { scriptMarker } from "../_shared/install-spec.ts";
import { PI } from "./protocol.ts";

/*
 * The pi extension `install pi` writes (`.pi/extensions/xcsh-hooks.js`, `~/.pi/agent/extensions/…`).
 * pi loads it with jiti into its Node process; it is plain ESM JavaScript with no imports but Node's
 * own, so it needs nothing installed next to it. Our runner is not ported to Node: each forwarded
 * event becomes one `bridge pi` call, answered by the hook server over its socket when one runs (no
 * process per call), else by `xcsh-hooks bridge pi` spawned asynchronously (payload on stdin, one JSON
 * answer on stdout), which starts the server for the calls after it (../_shared/node-client.ts). Trust,
 * discovery from pi's cwd, the hook chain, validation, timeouts, fail-closed and the decision log are
 * the bridge's, unchanged.
 * The extension applies the answers pi's way (bridge.ts), and fails closed itself: a call it cannot
 * start, one that outlives its deadline, exits non-zero or answers what is not an answer blocks a
 * tool call with the reason. Its factory cannot throw, so pi never loads it half-way.
 *
 * pi's `context` comes before every model request, so a call for it would cost a process per turn:
 * the extension forwards it only while the hooks handle it. The answers to `session_start` and
 * `before_agent_start` (each prompt) name the events the loaded hooks handle (`handles`); until one
 * has said so (or after one that did not), `context` is forwarded. A hook that starts handling
 * `context` mid-run is called from the next prompt on. A failed `context` call leaves pi's messages
 * as they are, with a warning (only a tool call fails closed).
 */

/**
 * The extension's source: `commands` maps each forwarded pi event to the shell command it runs;
 * `deadlineMs` is how long a call may take before the extension kills it (default: the bridge's own
 * deadline plus a grace, so the bridge's answer normally comes first). `served`: the commands are
 * `install`'s `bridge pi` entry, so a running hook server may answer instead (off for hand-written
 * commands and managed entries, which always run as a process).
 */
export function extensionSource(
	commands: Record<string, string>,
	deadlineMs = (PI.timeoutSeconds + PI.graceSeconds) * 1000,
	served = false,
): string {
	return `/*
${scriptMarker(PI.name)}
It forwards pi's events to xcsh-hooks, which runs the hooks in .xcsh/hooks/ and ~/.xcsh/agent/hooks/.
*/
${NODE_CLIENT_IMPORTS}
import { randomUUID } from "node:crypto";

const COMMANDS = ${JSON.stringify(commands, null, "\t")};
// The agent the hook server answers for, or null: every call runs as a process (hand-written commands, managed entries).
const SERVED = ${JSON.stringify(served ? PI.name : null)};
const SESSION = randomUUID();

${nodeClientSource({ deadlineMs, timeoutSeconds: PI.timeoutSeconds })}
function sessionIdOf(ctx) {
	try {
		const id = ctx && ctx.sessionManager && ctx.sessionManager.getSessionId && ctx.sessionManager.getSessionId();
		if (typeof id === "string" && id) return id;
	} catch {}
	return SESSION;
}

/** The bridge payload: pi's event (only the fields the bridge reads: no signals), cwd and session. */
function payloadOf(event, ctx) {
	const base = { type: event.type, cwd: (ctx && ctx.cwd) || process.cwd(), sessionId: sessionIdOf(ctx) };
	switch (event.type) {
		case "tool_call":
			return { ...base, toolName: event.toolName, toolCallId: event.toolCallId, input: event.input };
		case "tool_result":
			return { ...base, toolName: event.toolName, toolCallId: event.toolCallId, input: event.input, content: event.content, details: event.details, isError: event.isError === true };
		case "before_agent_start":
			return { ...base, prompt: typeof event.prompt === "string" ? event.prompt : "" };
		case "context":
			return { ...base, messages: Array.isArray(event.messages) ? event.messages : [] };
		case "session_before_compact":
			return { ...base, preparation: isObject(event.preparation) ? event.preparation : {}, customInstructions: event.customInstructions };
		default:
			return { ...base, reason: event.reason };
	}
}

const TOOL_CALL_KEYS = ["block", "reason", "input"];

/** pi's answer to a tool_call: a block, or undefined after an in-place rewrite of \`event.input\` (pi ignores a returned input). */
function toolCallAnswer(event, result) {
	if (result.failure) return { block: true, reason: "xcsh-hooks: " + result.failure + " (blocked: a guard that cannot decide denies)" };
	const answer = result.answer;
	const unknown = Object.keys(answer).filter((key) => !TOOL_CALL_KEYS.includes(key));
	if (unknown.length > 0) return { block: true, reason: "xcsh-hooks: unexpected answer keys " + unknown.join(", ") + " (blocked)" };
	if (answer.block === true) return { block: true, reason: typeof answer.reason === "string" && answer.reason.trim() ? answer.reason : "blocked by an xcsh hook" };
	if (answer.input !== undefined) {
		if (!isObject(answer.input) || !isObject(event.input)) return { block: true, reason: "xcsh-hooks: a rewritten input must be an object (blocked)" };
		for (const key of Object.keys(event.input)) delete event.input[key];
		// Own properties, never assignments: assigning a "__proto__" key would set the prototype instead.
		for (const [key, value] of Object.entries(answer.input))
			Object.defineProperty(event.input, key, { value, writable: true, enumerable: true, configurable: true });
	}
	return undefined;
}

function otherAnswer(event, result, say) {
	if (result.failure) {
		say("xcsh-hooks " + event.type + ": " + result.failure);
		return undefined;
	}
	const answer = result.answer;
	switch (event.type) {
		case "tool_result": {
			const out = {};
			if (Array.isArray(answer.content)) out.content = answer.content;
			if (answer.details !== undefined) out.details = answer.details;
			return Object.keys(out).length > 0 ? out : undefined;
		}
		case "before_agent_start":
			return isObject(answer.message) ? { message: answer.message } : undefined;
		case "context":
			return Array.isArray(answer.messages) ? { messages: answer.messages } : undefined;
		case "session_before_compact":
			return answer.cancel === true ? { cancel: true } : undefined;
		default:
			return undefined;
	}
}

/** The events the hooks handle, from an answer to \`session_start\` or \`before_agent_start\`; undefined: not known (forward all). */
function handledOf(result) {
	const list = result.answer && result.answer.handles;
	return Array.isArray(list) && list.every((name) => typeof name === "string") ? new Set(list) : undefined;
}

export default function xcshHooks(pi) {
	let handled;
	try {
		for (const [name, command] of Object.entries(COMMANDS)) {
			pi.on(name, async (event, ctx) => {
				if (event.type === "context" && handled && !handled.has("context")) return undefined;
				const say = (line) => {
					try {
						if (ctx && ctx.hasUI && ctx.ui && ctx.ui.notify) ctx.ui.notify(line, "warning");
						else process.stderr.write(line + "\\n");
					} catch {}
				};
				let result;
				try {
					const payload = payloadOf(event, ctx);
					result = await callXcsh(command, SERVED, payload, payload.cwd, say);
				} catch (error) {
					result = { failure: "forwarding failed: " + (error && error.message) };
				}
				if (event.type === "session_start" || event.type === "before_agent_start") handled = handledOf(result);
				return event.type === "tool_call" ? toolCallAnswer(event, result) : otherAnswer(event, result, say);
			});
		}
	} catch (error) {
		try { process.stderr.write("xcsh-hooks: the pi extension could not register its handlers: " + (error && error.message) + "\\n"); } catch {}
	}
}
`;
}
