import type { TSchema } from "@sinclair/typebox";

/**
 * The TypeBox parameters of a built-in tool by name, or `undefined` for any other tool. Loaded on
 * demand: hosts that only decide `tool_call` (emit, serve, bridges) need them only when a hook
 * rewrote a built-in tool's input, to check it before anyone runs it.
 */
export async function builtinToolParameters(name: string): Promise<TSchema | undefined> {
	switch (name) {
		case "bash":
			return (await import("./bash.ts")).BashParamsSchema;
		case "read":
			return (await import("./read.ts")).ReadParamsSchema;
		case "write":
			return (await import("./write.ts")).WriteParamsSchema;
		case "edit":
			return (await import("./edit.ts")).EditParamsSchema;
		default:
			return undefined;
	}
}
