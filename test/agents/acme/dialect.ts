import { type Dialect, exitFailure, parseAnswer, str } from "../../../src/agents/_shared/dialect.ts";
import { hookTargets } from "../../../src/agents/_shared/events.ts";
import { acmeBridge, acmeEvents } from "./bridge.ts";

/** Acme's own hooks in our runner: the same payload Acme sends, and its verdicts read back. */
export const acmeDialect: Dialect = {
	agent: "acme",
	label: "Acme",
	events: hookTargets(acmeEvents),
	tools: acmeBridge.tools,
	absolutePaths: false,
	matchMode: "regex-or-exact",
	fires: () => true,
	subject: (_entry, info) => info.call?.name,
	env: (info) => ({ ACME_PROJECT: info.cwd }),
	payload: (entry, info) => ({
		event: entry.event,
		session: info.sessionId,
		project: info.cwd,
		...(info.call ? { tool: { name: info.call.name, args: info.call.input } } : {}),
	}),
	read(_entry, result) {
		if (result.code !== 0) return { failure: exitFailure(result) };
		const parsed = parseAnswer(result.stdout);
		if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
		if (parsed.json?.verdict === "deny") return { deny: str(parsed.json.why) ?? "denied by an Acme hook" };
		return {};
	},
	outputText: (_call, output) => String(output ?? ""),
};
