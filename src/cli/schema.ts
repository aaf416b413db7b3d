import { HOOK_EVENT_TYPES, HookEventSchemas, HookResultSchemas } from "../hooks/schemas.ts";
import { isHookEventType } from "../hooks/checks.ts";
import { cliError, EXIT_OK, projectArgs, printJson, defineCommand } from "./_shared.ts";
import { unknownName } from "../suggest.ts";

export const schemaCommand = defineCommand({
	meta: {
		name: "schema",
		description: "Print the JSON Schema of an event and its result",
		details: "Print the JSON Schema of an event and its result (or of all events)",
	},
	args: {
		type: { type: "positional", required: false, description: "Event type; all events when omitted" },
		json: projectArgs.json,
	},
	async run({ args }) {
		const results = HookResultSchemas as Record<string, unknown>;
		if (args.type === undefined) {
			await printJson({ events: HookEventSchemas, results });
			return EXIT_OK;
		}
		if (!isHookEventType(args.type))
			throw cliError(unknownName("event type", args.type, HOOK_EVENT_TYPES, "xcsh-hooks emit --help lists the events"));
		await printJson({ event: HookEventSchemas[args.type], result: results[args.type] ?? null });
		return EXIT_OK;
	},
});
