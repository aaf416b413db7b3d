import { XcshError } from "../errors.ts";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "pathe";
import { execCommand } from "../exec/exec-command.ts";
import { parseJsonText } from "../json.ts";
import { userAgentDir } from "../paths.ts";
import type { ApprovedSource } from "./_approved.ts";
import { eventRule } from "./event-rules.ts";
import type { HookContext, HookFactory, ToolCallEvent, ToolResultEvent } from "./types.ts";

/** How a shell hook is wired: `pre` gates `tool_call`, `post` may rewrite `tool_result`. */
export interface ShellHookSpec {
	type: "pre" | "post";
	/** Tool name the hook fires for; `*` for every tool. */
	tool: string;
}

/** Default time a shell hook may run before it counts as failed. */
export const DEFAULT_SHELL_HOOK_TIMEOUT_MS = 60_000;

export { isModulePath } from "./module-files.ts";

/** `pre/bash.sh` → `{type: "pre", tool: "bash"}`; `post/*.py` → all tools; undefined outside pre/ and post/. */
export function inferShellHookSpec(path: string): ShellHookSpec | undefined {
	const type = basename(dirname(path));
	if (type !== "pre" && type !== "post") return undefined;
	const name = basename(path);
	const dot = name.lastIndexOf(".");
	const stem = dot > 0 ? name.slice(0, dot) : name;
	return { type, tool: stem === "*" || stem === "" ? "*" : stem };
}

/**
 * The interpreter of a script's `#!` line when it is a relative path: the kernel resolves it against the
 * working directory — the project — so it would run a project file that nobody approved.
 */
export function relativeInterpreter(bytes: Uint8Array): string | undefined {
	const head = new TextDecoder().decode(bytes.subarray(0, 256));
	if (!head.startsWith("#!")) return undefined;
	const interpreter = head.slice(2).trimStart().split(/\s/, 1)[0] ?? "";
	return interpreter !== "" && !isAbsolute(interpreter) ? interpreter : undefined;
}

function assertRunnable(path: string): void {
	let isFile: boolean;
	try {
		isFile = statSync(path).isFile();
	} catch {
		throw new XcshError("HOOK_LOAD", `file not found: ${path}`);
	}
	if (!isFile) throw new XcshError("HOOK_LOAD", `${path} is not a file`);
	try {
		accessSync(path, constants.X_OK);
	} catch {
		throw new XcshError(
			"HOOK_LOAD",
			`${path} is neither a JS/TS module nor executable; make it executable (chmod +x ${path}) or give it a .ts/.js extension`,
		);
	}
}

type ShellEvent = ToolCallEvent | ToolResultEvent;

async function runShellHook(path: string, run: string, event: ShellEvent, ctx: HookContext, timeoutMs: number): Promise<unknown> {
	const result = await execCommand(run, [], ctx.cwd, {
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
	if (result.killed) throw new XcshError("HOOK_TIMEOUT", `Shell hook ${path} timed out after ${timeoutMs} ms`);
	if (result.code === 2) {
		if (eventRule(event.type)?.guard) return { block: true, reason: stderr || `Blocked by shell hook ${path}` };
		throw new XcshError("HOOK_FAILED", `Shell hook ${path} exited with code 2, but post hooks cannot block${stderr ? `: ${stderr}` : ""}`);
	}
	if (result.code !== 0)
		throw new XcshError("HOOK_FAILED", `Shell hook ${path} exited with code ${result.code}${stderr ? `: ${stderr}` : ""}`);

	// Output that looks like a result but cannot be read as one is an error, never "allow".
	if (result.truncated)
		throw new XcshError("HOOK_FAILED", `Shell hook ${path} printed more than the output limit; its result cannot be read`);
	const stdout = result.stdout.trim();
	if (!stdout.startsWith("{")) return undefined;
	try {
		const parsed = parseJsonText(stdout, "its output");
		if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new XcshError("INVALID_JSON", "not a JSON object");
		return parsed; // checked against the event's result schema by the runner, like any handler's result
	} catch (error) {
		throw new XcshError(
			"HOOK_FAILED",
			`Shell hook ${path} printed output starting with "{" that is not one JSON object: ${(error as Error).message}`,
		);
	}
}

/**
 * The approved bytes of a shell hook as a private executable copy, `~/.xcsh/agent/approved/<sha256>-<name>`
 * (mode 0700 in a 0700 folder): running it runs exactly what was approved, whatever happens to the
 * project's file afterwards. The copy is content-addressed, so it is written once and checked on reuse.
 */
async function approvedCopy(path: string, source: ApprovedSource): Promise<string> {
	const dir = join(userAgentDir(), "approved");
	const copy = join(dir, `${source.sha256}-${basename(path)}`);
	if (existsSync(copy) && new Bun.CryptoHasher("sha256").update(readFileSync(copy)).digest("hex") === source.sha256) return copy;
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const { writeFileAtomic } = await import("../fs/atomic-write.ts");
	await writeFileAtomic(copy, source.bytes, { mode: 0o700 });
	return copy;
}

/**
 * Adapts an executable as a hook (docs/contract.md#shell-hooks): the event goes to its stdin as JSON, with
 * `XCSH_HOOK_EVENT`, `XCSH_TOOL_NAME` and `XCSH_PROJECT_DIR` in its environment. Exit 0 allows (a JSON
 * object on stdout is the result), exit 2 blocks with stderr as the reason, anything else is an error —
 * which blocks a `pre` hook's tool call (fail closed) and reaches `onError` for a `post` hook.
 */
export async function createShellHookFactory(
	path: string,
	spec: ShellHookSpec | undefined,
	timeoutMs = DEFAULT_SHELL_HOOK_TIMEOUT_MS,
	approved?: ApprovedSource,
): Promise<HookFactory> {
	assertRunnable(path);
	const interpreter = relativeInterpreter(approved?.bytes ?? readFileSync(path));
	if (interpreter)
		throw new XcshError(
			"HOOK_LOAD",
			`${path} starts with #!${interpreter}, a relative interpreter that would be looked up in the project at run time; use an absolute one (#!/bin/sh, #!/usr/bin/env bash)`,
		);
	// An approved hook runs a copy of the approved bytes; its $0 is that copy (XCSH_PROJECT_DIR names the project).
	const run = approved ? await approvedCopy(path, approved) : path;
	const wiring = spec ?? inferShellHookSpec(path);
	if (!wiring)
		throw new XcshError(
			"HOOK_LOAD",
			`cannot tell when to run ${path}: shell hooks live in a pre/ or post/ folder (e.g. hooks/pre/bash.sh)`,
		);
	const matches = (toolName: string) => wiring.tool === "*" || wiring.tool === toolName;
	const call = (event: ShellEvent, ctx: HookContext) => {
		// The files beside it, which it may source from the project, are checked before every run (docs/contract.md#trust).
		approved?.recheck?.();
		return runShellHook(path, run, event, ctx, timeoutMs);
	};
	return (pi) => {
		if (wiring.type === "pre")
			pi.on("tool_call", (event, ctx) => (matches(event.toolName) ? (call(event, ctx) as Promise<{ block?: boolean }>) : undefined));
		else pi.on("tool_result", (event, ctx) => (matches(event.toolName) ? (call(event, ctx) as Promise<undefined>) : undefined));
	};
}
