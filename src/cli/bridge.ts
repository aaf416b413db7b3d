import { bridgeNames } from "../agent-call/index.ts";
import { cliError, defineCommand, hookArgs, hookPaths, projectDir } from "./_shared.ts";
import { runBridgeCall } from "./bridge-call.ts";

/** `--timeout SECONDS`: a positive number. */
function timeoutSeconds(value: unknown): number | undefined {
	if (value === undefined) return undefined;
	const seconds = Number(value);
	if (!Number.isFinite(seconds) || seconds <= 0) throw cliError(`--timeout ${String(value)}: expected a positive number of seconds`);
	return seconds;
}

/** `xcsh-hooks bridge <agent>`: one agent hook call in, exactly one answer in that agent's protocol out, exit 0. */
export const bridgeCommand = defineCommand({
	meta: {
		name: "bridge",
		description: "Answer another agent's hook call with these hooks",
		details: "Be another agent's hook command: read its hook JSON on stdin, answer in its protocol",
	},
	args: {
		agent: { type: "positional", description: `The agent: ${bridgeNames().join(", ")}` },
		event: {
			type: "string",
			description: "The agent's event name, for payloads that carry none (Copilot camelCase events)",
			valueHint: "name",
		},
		timeout: {
			type: "string",
			description: "Seconds before the bridge answers by itself, denying a tool call (default: below the agent's own hook timeout)",
			valueHint: "seconds",
		},
		"allow-load-errors": { type: "boolean", description: "Let tool calls run even when a hook failed to load" },
		managed: {
			type: "boolean",
			description: "The entry install --managed wrote: a system hook folder that fails its ownership check denies tool calls",
		},
		// `install` ends its entries with --installed-by=xcsh-hooks so that it (and uninstall) can tell them from the user's.
		"installed-by": { type: "string", description: "Marks an entry xcsh-hooks install wrote; changes nothing", valueHint: "xcsh-hooks" },
		...hookArgs,
	},
	async run({ args }) {
		const name = args.agent as string;
		const code = await runBridgeCall({
			agent: name,
			event: args.event,
			cwd: args.cwd === undefined ? undefined : projectDir(args.cwd),
			hookPaths: hookPaths(args),
			discovery: args.discovery,
			allowLoadErrors: args["allow-load-errors"] === true,
			managed: args.managed === true,
			timeoutSeconds: timeoutSeconds(args.timeout),
		});
		if (code === undefined) throw cliError((await import("../suggest.ts")).unknownName("agent", name, bridgeNames()));
		return code;
	},
});
