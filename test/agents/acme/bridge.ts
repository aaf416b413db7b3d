import { answerJson, stringField } from "../../../src/agents/_shared/answer.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Payload } from "../../../src/agents/_shared/bridge-types.ts";
import { obj, opt, str, type Shape } from "../../../src/agents/_shared/fields.ts";
import { outputAsText } from "../../../src/agents/_shared/text.ts";
import { shellRule } from "../../../src/agents/_shared/tools.ts";

/**
 * Acme, an agent that exists only in this test tree, to show that adding an agent is one folder plus
 * one registration. Its protocol: `{event, session, project, tool: {name, args}}` on stdin; answers
 * `{"verdict":"deny","why":…}` or `{"verdict":"allow","args":…}`. Its shell tool is `sh {cmd}`.
 */
const common: Shape = { event: str, session: str, project: opt(str) };
const call = (p: Payload): AgentToolCall => {
	const tool = p.tool as { name: string; args: Record<string, unknown> };
	return { name: tool.name, input: tool.args, output: p.output };
};

export const acmeEvents: Record<string, AgentEventSpec> = {
	before_tool: { fields: { ...common, tool: obj({ name: str, args: obj() }) }, to: "tool_call", call },
	after_tool: { fields: { ...common, tool: obj({ name: str, args: obj() }), output: opt(str) }, to: "tool_result", call },
	hello: { fields: common, to: "session_start" },
	ping: { fields: common, to: null },
};

export const acmeBridge: AgentBridge = {
	name: "acme",
	events: acmeEvents,
	tools: [{ ...shellRule("sh"), fields: { command: "cmd" } }],
	timeoutSeconds: 10,
	eventName: (payload, hint) => hint ?? stringField(payload, "event"),
	projectDirs: (payload, env) => [env.ACME_PROJECT, stringField(payload, "project")],
	sessionId: (payload) => stringField(payload, "session"),
	outputText: (c) => outputAsText(c.output),
	answer(_event, _payload, outcome) {
		if (outcome.kind === "deny") return answerJson({ verdict: "deny", why: outcome.reason });
		if (outcome.kind === "rewrite") return answerJson({ verdict: "allow", args: outcome.input });
		if (outcome.kind === "replace") return answerJson({ output: outcome.text ?? "" });
		return "";
	},
	denyUnknown: (reason) => JSON.stringify({ verdict: "deny", why: reason }),
};
