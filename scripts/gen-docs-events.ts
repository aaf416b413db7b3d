/**
 * Writes docs/events.md, the event reference, from the event table (src/hooks/events.ts): every event
 * with its payload, its result and how results combine. `bun scripts/gen-docs-events.ts` rewrites it;
 * test/events/docs-events.test.ts fails when it is stale.
 */
import { Kind, OptionalKind, type TSchema } from "@sinclair/typebox";
import { join } from "pathe";
import { AgentMessageSchema, ImageContentSchema, TextContentSchema, ToolContentSchema, ToolResultMessageSchema } from "../src/messages.ts";
import { CompactionResultSchema, McpToolSchema, SubagentSchema, TodoItemSchema, TreePreparationSchema } from "../src/hooks/event-parts.ts";
import type { Combine, OutcomeKind } from "../src/hooks/event-rules.ts";
import { EVENTS, type EventEntry } from "../src/hooks/events.ts";

export const EVENTS_DOC = join(import.meta.dir, "..", "docs", "events.md");

/** Schemas named by the type hook authors know them by (by shape: `Type.Optional` makes a copy). */
const NAMED = new Map<string, string>(
	(
		[
			[TextContentSchema, "TextContent"],
			[AgentMessageSchema, "AgentMessage"],
			[ImageContentSchema, "ImageContent"],
			[ToolContentSchema, "ToolContent"],
			[ToolResultMessageSchema, "ToolResultMessage"],
			[CompactionResultSchema, "CompactionResult"],
			[TreePreparationSchema, "TreePreparation"],
			[TodoItemSchema, "TodoItem"],
			[McpToolSchema, "{server, tool}"],
			[SubagentSchema, "HookSubagent"],
		] as const
	).map(([schema, name]) => [JSON.stringify(schema), name]),
);

/** A schema as a short TypeScript-like type. */
function typeOf(schema: TSchema): string {
	const named = NAMED.get(JSON.stringify(schema));
	if (named) return named;
	const props = schema as Record<string, unknown>;
	switch (schema[Kind]) {
		case "Literal":
			return JSON.stringify(props.const);
		case "Union":
			return (props.anyOf as TSchema[]).map(typeOf).join(" \\| ");
		case "Array": {
			const items = props.items as TSchema;
			return items[Kind] === "Union" && !NAMED.has(JSON.stringify(items)) ? `(${typeOf(items)})[]` : `${typeOf(items)}[]`;
		}
		case "Record":
			return `Record<string, ${typeOf(Object.values(props.patternProperties as Record<string, TSchema>)[0] as TSchema)}>`;
		case "Object":
			return `{${Object.keys(props.properties as object).join(", ")}}`;
		case "Integer":
			return "integer";
		case "Any":
			return props.description === undefined ? "any" : String(props.description);
		default:
			return String(schema[Kind]).toLowerCase();
	}
}

/** The fields of an object schema as table rows (the `type` literal left out). */
function fields(schema: TSchema): string[] {
	const properties = (schema as unknown as { properties: Record<string, TSchema> }).properties;
	const rows = Object.entries(properties)
		.filter(([name]) => name !== "type")
		.map(([name, field]) => `| \`${name}${field[OptionalKind] ? "?" : ""}\` | ${typeOf(field)} |`);
	return rows.length === 0 ? ["(no fields besides `type`)"] : ["| field | type |", "| --- | --- |", ...rows];
}

const code = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(", ");

/** A combine rule in one sentence. */
export function describeCombine(combine: Combine): string {
	switch (combine.rule) {
		case "none":
			return "**none**: results are ignored; `emit` resolves `undefined`.";
		case "last":
			return "**last**: the last truthy result wins.";
		case "cancel":
			return `**cancel**: the last truthy result wins; one with \`${combine.field}: true\` ends dispatch at once, and the host stops (\`${combine.stopped}\`, or the result's \`reason\`)${combine.failClosed ? "; a hook that changed JavaScript built-ins on it stops it too" : ""}.`;
		case "first":
			return `**first**: every handler runs on its own copy of the event; the first result carrying \`${combine.field}\` wins.`;
		case "chain":
			return `**chain**: each handler sees ${code(combine.fields)} as the handlers before it replaced them (\`undefined\` is "not replaced"); ${
				combine.resolves === "final"
					? `resolves the final ${code(combine.fields)}.`
					: `resolves everything the handlers replaced${combine.keeps ? ` (and ${code(combine.keeps)})` : ""}.`
			}`;
		case "block": {
			const [strongest, ...rest] = combine.verdicts;
			return `**block**: \`${strongest}: true\` ends dispatch at once${
				rest.length > 0 ? `; a result with ${code(rest)} outranks one without (in that order), the first such result standing` : ""
			}; otherwise the last truthy result wins, carrying the final \`${combine.chain}\` when a handler replaced it (later handlers see it). A handler that throws, times out or returns an invalid result denies.`;
		}
		case "answer":
			return `**answer**: the first result with \`${combine.field}: "${combine.stopsOn}"\` ends dispatch at once (\`${combine.stopped}\`, or the result's \`reason\`); otherwise the last truthy result wins; no result leaves the decision to the agent.`;
	}
}

const OUTCOMES: Record<OutcomeKind, string> = {
	deny: "deny the call with the reason, or run it with the replaced input",
	replace: "the tool's output replaced",
	context: "the message's text added to the model's context",
	messages: "the messages sent to the model replaced",
	"deny-start": "the subagent not started (where the agent can)",
	cancel: "the compaction cancelled",
	approve: "the agent's approval prompt answered: approved, denied with the reason, or left to the person",
};

const RULES: Record<Combine["rule"], string> = {
	none: "results are ignored.",
	last: "the last truthy result wins.",
	cancel:
		"the last truthy result wins; one with the rule's field set (`cancel: true`) ends dispatch at once, and the host stops what the event announced.",
	first: "every handler runs on its own copy of the event; the first result carrying the rule's field wins.",
	chain: "each handler sees the rule's fields as the handlers before it replaced them.",
	block:
		"a guard's decision. Its verdicts, strongest first: the first (`block: true`) ends dispatch at once, a later one outranks a result with none (the first such result stands), otherwise the last truthy result wins. A handler that throws, times out or returns an invalid result denies.",
	answer:
		'an answer of one field: the first result with the stopping answer (`decision: "deny"`) ends dispatch at once, otherwise the last truthy result wins ("first deny wins, else last allow").',
};

function section(type: string, entry: EventEntry): string[] {
	const lines = [`## \`${type}\``, "", entry.summary, "", "**Payload**", "", ...fields(entry.payload), ""];
	lines.push("**Result**", "", ...(entry.result ? fields(entry.result) : ["(none: handlers' results are ignored)"]), "");
	lines.push(`**Combine**: ${describeCombine(entry.combine).replace(/^\*\*(\w+)\*\*/, "`$1`")}`, "");
	if (entry.guard) lines.push("**Guards a call**: anything that goes wrong on it denies the call (fail closed).", "");
	if (entry.outcome) lines.push(`**For an agent**: ${OUTCOMES[entry.outcome]}.`, "");
	return lines;
}

/** The whole page. */
export function eventsDoc(table: Record<string, EventEntry> = EVENTS): string {
	const lines = [
		"# Events",
		"",
		"<!-- Generated from the event table (src/hooks/events.ts) by `bun scripts/gen-docs-events.ts`; do not edit. -->",
		"",
		"Every hook event, its payload (what a handler receives), its result (what a handler may return)",
		"and how the results of several handlers combine. A `?` marks an optional field. Handlers run in",
		"hook order, then in the order they were registered; a result that fails its schema is an error of",
		"that hook. To add an event, see [adding-an-event.md](adding-an-event.md).",
		"",
		"| event | result | combine | guards a call |",
		"| --- | --- | --- | --- |",
		...Object.entries(table).map(
			([type, entry]) =>
				`| [\`${type}\`](#${type.replace(/[^a-z0-9_-]/g, "")}) | ${entry.result ? "yes" : "ignored"} | ${entry.combine.rule} | ${entry.guard ? "yes" : ""} |`,
		),
		"",
		"The combine rules, each with its own fields per event (below):",
		"",
		...Object.entries(RULES).map(([rule, text]) => `- \`${rule}\`: ${text}`),
		"",
		...Object.entries(table).flatMap(([type, entry]) => section(type, entry)),
	];
	return `${lines.join("\n").trimEnd()}\n`;
}

if (import.meta.main) {
	await Bun.write(EVENTS_DOC, eventsDoc());
	console.log(`wrote ${EVENTS_DOC}`);
}
