import { XcshError } from "../errors.ts";
import { validateValue, type ValidationResult } from "../hooks/validate.ts";
import type { AgentTool } from "../hooks/types.ts";

/** The parts of a tool that input validation needs. */
type ToolSchema = Pick<AgentTool, "name" | "parameters">;

/**
 * Checks `input` against `tool.parameters`. Each error names the tool and the field, e.g.
 * `bash input.command: expected string (got 1)`.
 */
export function validateToolInput(tool: ToolSchema, input: unknown): ValidationResult<Record<string, unknown>> {
	if (typeof input !== "object" || input === null || Array.isArray(input)) {
		const got = input === null ? "null" : Array.isArray(input) ? "an array" : typeof input;
		return { ok: false, errors: [`${tool.name} input: expected an object (got ${got})`] };
	}
	return validateValue<Record<string, unknown>>(tool.parameters, input, `${tool.name} input.`);
}

/** Like {@link validateToolInput} but throws one Error listing every offending field. */
export function assertToolInput<T>(tool: ToolSchema, input: unknown): T {
	const result = validateToolInput(tool, input);
	if (!result.ok) throw new XcshError("INVALID_INPUT", `Invalid ${result.errors.join("; ")}`);
	return result.value as T;
}
