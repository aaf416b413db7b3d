import { accessSync, constants, statSync } from "node:fs";
import { basename, dirname, extname } from "pathe";
import { execCommand } from "../exec/exec-command.ts";
import type { HookContext, HookFactory, ToolCallEvent, ToolResultEvent } from "./types.ts";
import { isHookResult } from "./checks.ts";

/** How a shell hook is wired: `pre` gates `tool_call`, `post` may rewrite `tool_result`. */
export interface ShellHookSpec {
	type: "pre" | "post";
	/** Tool name the hook fires for; `*` for every tool. */
	tool: string;
}

/** Default time a shell hook may run before it counts as failed. */
export const DEFAULT_SHELL_HOOK_TIMEOUT_MS = 60_000;

const MODULE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);

/** Whether a path is a JS/TS module the loader imports (by extension). */
export function isModulePath(path: string): boolean {
	return MODULE_EXTENSIONS.has(extname(path)) && !path.endsWith(".d.ts");
}

/** `pre/bash.sh` → `{type: "pre", tool: "bash"}`; `post/*.py` → all tools; undefined outside pre/ and post/. */
export function inferShellHookSpec(path: string): ShellHookSpec | undefined {
	const type = basename(dirname(path));
	if (type !== "pre" && type !== "post") return undefined;
	const name = basename(path);
	const dot = name.lastIndexOf(".");
	const stem = dot > 0 ? name.slice(0, dot) : name;
	return { type, tool: stem === "*" || stem === "" ? "*" : stem };
}

function assertRunnable(path: string): void {
	let isFile: boolean;
	try {
		isFile = statSync(path).isFile();
	} catch {
		throw new Error(`file not found: ${path}`);
	}
	if (!isFile) throw new Error(`${path} is not a file`);
	try {
		accessSync(path, constants.X_OK);
	} catch {
		throw new Error(
			`${path} is neither a JS/TS module nor executable; make it executable (chmod +x ${path}) or give it a .ts/.js extension`,
		);
	}
}

type ShellEvent = ToolCallEvent | ToolResultEvent;

async function runShellHook(path: string, event: ShellEvent, ctx: HookContext, timeoutMs: number): Promise<unknown> {
	const result = await execCommand(path, [], ctx.cwd, {
		timeout: timeoutMs,
		input: JSON.stringify(event),
		env: {
			...process.env,
			XCSH_HOOK_EVENT: event.type,
			XCSH_TOOL_NAME: event.toolName,
			XCSH_PROJECT_DIR: ctx.cwd,
		},
	});
	const stderr = result.stderr.trim();
	if (result.killed) throw new Error(`Shell hook ${path} timed out after ${timeoutMs} ms`);
	if (result.code === 2) {
		if (event.type === "tool_call") return { block: true, reason: stderr || `Blocked by shell hook ${path}` };
		throw new Error(`Shell hook ${path} exited with code 2, but post hooks cannot block${stderr ? `: ${stderr}` : ""}`);
	}
	if (result.code !== 0) throw new Error(`Shell hook ${path} exited with code ${result.code}${stderr ? `: ${stderr}` : ""}`);

	const stdout = result.stdout.trim();
	if (!stdout.startsWith("{")) return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(stdout);
	} catch {
		return undefined; // Plain output that merely starts with a brace: not a result.
	}
	if (!isHookResult(event.type, parsed)) {
		// TypeBox is loaded only to explain the mistake.
		const checked = (await import("./validate.ts")).validateResult(event.type, parsed);
		throw new Error(`Shell hook ${path} printed an invalid result: ${checked.ok ? "rejected" : checked.errors.join("; ")}`);
	}
	return parsed;
}

/**
 * Adapts an executable as a hook (SPEC §8.3): the event goes to its stdin as JSON, with
 * `XCSH_HOOK_EVENT`, `XCSH_TOOL_NAME` and `XCSH_PROJECT_DIR` in its environment. Exit 0 allows (a JSON
 * object on stdout is the result), exit 2 blocks with stderr as the reason, anything else is an error —
 * which blocks a `pre` hook's tool call (fail closed) and reaches `onError` for a `post` hook.
 */
export async function createShellHookFactory(
	path: string,
	spec: ShellHookSpec | undefined,
	timeoutMs = DEFAULT_SHELL_HOOK_TIMEOUT_MS,
): Promise<HookFactory> {
	assertRunnable(path);
	const wiring = spec ?? inferShellHookSpec(path);
	if (!wiring)
		throw new Error(`cannot tell when to run ${path}: shell hooks live in a pre/ or post/ folder (e.g. hooks/pre/bash.sh)`);
	const matches = (toolName: string) => wiring.tool === "*" || wiring.tool === toolName;
	return (pi) => {
		if (wiring.type === "pre")
			pi.on("tool_call", (event, ctx) =>
				matches(event.toolName) ? (runShellHook(path, event, ctx, timeoutMs) as Promise<{ block?: boolean }>) : undefined,
			);
		else
			pi.on("tool_result", (event, ctx) =>
				matches(event.toolName) ? (runShellHook(path, event, ctx, timeoutMs) as Promise<undefined>) : undefined,
			);
	};
}
