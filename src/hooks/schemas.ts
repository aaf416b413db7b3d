import type { Static, TObject } from "@sinclair/typebox";
import { EVENTS } from "./events.ts";

export { CompactionResultSchema, McpToolSchema, SubagentSchema, TodoItemSchema, TreePreparationSchema } from "./event-parts.ts";

/*
 * Every hook event and every handler result as a TypeBox schema, read from the event table
 * (`events.ts`). The TypeScript types in `types.ts` are derived from these, so the schemas the CLI
 * validates JSON with and the types hook authors write against cannot drift apart.
 */

type Table = typeof EVENTS;
/** The events whose entry has a result schema. */
type WithResult = { [K in keyof Table]: Table[K] extends { result: TObject } ? K : never }[keyof Table];

/** Schemas of every event, keyed by event type. */
export const HookEventSchemas = Object.fromEntries(Object.entries(EVENTS).map(([type, entry]) => [type, entry.payload])) as {
	[K in keyof Table]: Table[K]["payload"];
};

/** Schemas of the results handlers may return, for the events that take one. */
export const HookResultSchemas = Object.fromEntries(
	Object.entries(EVENTS).flatMap(([type, entry]) => ("result" in entry ? [[type, entry.result]] : [])),
) as { [K in WithResult]: Extract<Table[K], { result: TObject }>["result"] };

/** Every event type, in the order of the spec. */
export type HookEventType = keyof Table;
export const HOOK_EVENT_TYPES = Object.keys(HookEventSchemas) as HookEventType[];

/** The event payload of each event type. */
export type HookEventMap = { [K in HookEventType]: Static<Table[K]["payload"]> };
/** The result each event type's handlers may return (`undefined` where results are ignored). */
export type HookResultMap = {
	[K in HookEventType]: K extends keyof typeof HookResultSchemas ? Static<(typeof HookResultSchemas)[K]> : undefined;
};
