import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import type { Field, FieldType, Shape } from "../agents/_shared/fields.ts";
import type { AgentBridge } from "../agents/_shared/bridge-types.ts";

/*
 * The TypeBox schemas of agent payloads, built from the same {@link Shape}s the bridge checks with
 * (so the two cannot drift): for documentation, JSON Schema export and tests. Not on the bridge's
 * start-up path.
 */

const BY_TYPE: Record<FieldType, () => TSchema> = {
	string: () => Type.String(),
	number: () => Type.Number(),
	boolean: () => Type.Boolean(),
	object: () => Type.Object({}, { additionalProperties: true }),
	array: () => Type.Array(Type.Unknown()),
	null: () => Type.Null(),
};

function fieldSchema(field: Field): TSchema {
	const types = field.types.map((type) => (type === "object" && field.fields ? shapeSchema(field.fields) : BY_TYPE[type]()));
	const schema = types.length === 1 ? (types[0] as TSchema) : Type.Union(types);
	return field.optional ? Type.Optional(schema) : schema;
}

/** The TypeBox schema of a payload shape; fields it does not name are allowed. */
export function shapeSchema(shape: Shape): TObject {
	const properties: Record<string, TSchema> = {};
	for (const [name, field] of Object.entries(shape)) properties[name] = fieldSchema(field);
	return Type.Object(properties, { additionalProperties: true });
}

/** The payload schema of every event of an agent, keyed by the agent's event name. */
export function agentPayloadSchemas(agent: AgentBridge): Record<string, TObject> {
	const schemas: Record<string, TObject> = {};
	for (const [name, spec] of Object.entries(agent.events)) schemas[name] = shapeSchema(spec.fields);
	return schemas;
}
