/**
 * Real projects for the agent-hook tests: config files of Claude Code, Codex, Gemini CLI and Cursor in
 * temp dirs, with the example hooks of the agents' own documentation as real scripts, loaded through
 * the library (discoverAndLoadHooks + HookRunner + HookToolWrapper with the real `bash` tool) or the CLI.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { discoverAndLoadHooks, type DiscoverAndLoadOptions } from "../../src/discovery/discover.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import type { HookError, HookMessage } from "../../src/hooks/types.ts";
import { createBuiltinTools } from "../../src/tools/builtin.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

export { tempDir, writeFiles };

/** Claude's documented exit-2 guard (`jq -r .tool_input.command | grep 'rm -rf'`), written without jq. */
export const BLOCK_RM_EXIT2 = `#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf'*) echo "Blocked: rm -rf commands are not allowed" >&2; exit 2 ;;
esac
exit 0
`;

/** Claude's documented JSON deny, with jq when it is installed, else the same answer from a bun script. */
export const JSON_DENY = Bun.which("jq")
	? `#!/bin/sh
jq -c 'if (.tool_input.command // "" | test("rm -rf")) then {hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "Destructive command blocked by hook"}} else empty end'
`
	: `#!/usr/bin/env bun
const input = JSON.parse(await Bun.stdin.text());
if (String(input.tool_input?.command ?? "").includes("rm -rf"))
	console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "Destructive command blocked by hook" } }));
`;

/** An input rewriter (Claude `updatedInput`): `rm -rf X` becomes `echo would remove X`. */
export const REWRITE_RM = `#!/usr/bin/env bun
const input = JSON.parse(await Bun.stdin.text());
const command = String(input.tool_input.command);
if (command.startsWith("rm -rf "))
	console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { ...input.tool_input, command: command.replace("rm -rf", "echo would remove") } } }));
`;

/** A PostToolUse context adder. */
export const POST_CONTEXT = `#!/bin/sh
cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Remember: run the linter after editing"}}'
`;

/** Writes its stdin to payload-<name>.json and its environment to env-<name>.txt in the project. */
export const DUMP = (name: string) => `#!/bin/sh
cat > "$PWD/payload-${name}.json"
env > "$PWD/env-${name}.txt"
`;

/** A Claude-style settings file: one matcher group per event. */
export function claudeSettings(
	hooks: Record<string, Array<{ matcher?: string; command: string; timeout?: number }>>,
	extra: Record<string, unknown> = {},
): string {
	const out: Record<string, unknown> = {};
	for (const [event, entries] of Object.entries(hooks))
		out[event] = entries.map(({ matcher, command, timeout }) => ({
			...(matcher === undefined ? {} : { matcher }),
			hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }],
		}));
	return JSON.stringify({ ...extra, hooks: out }, null, 2);
}

/** A project dir and a private HOME (set as HOME for this process too). */
export function setup(files: Record<string, string> = {}, homeFiles: Record<string, string> = {}) {
	const dir = tempDir("xcsh-agent-hooks-");
	const home = tempDir("xcsh-agent-home-");
	process.env.HOME = home;
	const executable = [...Object.keys(files), ...Object.keys(homeFiles)].filter((p) => p.includes("/hooks/") && !p.endsWith(".json"));
	writeFiles(dir, files, executable);
	writeFiles(home, homeFiles, executable);
	return { dir, home };
}

/** Hooks discovered in `dir` (trust "all" unless given), behind a runner wired like a host. */
export async function library(dir: string, home: string, options: DiscoverAndLoadOptions = {}) {
	const loaded = await discoverAndLoadHooks([], dir, { home, ...options });
	const runner = new HookRunner(loaded.hooks, dir);
	const messages: Array<{ message: HookMessage; options?: unknown }> = [];
	const errors: HookError[] = [];
	const notes: string[] = [];
	runner.onError((e) => errors.push(e));
	const ui = (await import("../../src/ui/no-op.ts")).createNoOpUIContext();
	ui.notify = (m) => void notes.push(m);
	runner.initialize({
		getModel: () => undefined,
		sendMessageHandler: (message, opts) => void messages.push({ message, options: opts }),
		appendEntryHandler: () => {},
		uiContext: ui,
	});
	const bash = new HookToolWrapper(createBuiltinTools(dir).bash, runner);
	const run = (command: string) => bash.execute(`call_${crypto.randomUUID().slice(0, 6)}`, { command });
	return { loaded, runner, messages, errors, notes, run };
}

/** The text of a tool result. */
export const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((c) => c.text ?? "").join("\n");

/** A JSON file the project's DUMP hook wrote. */
export function dumped(dir: string, name: string): Record<string, unknown> {
	const file = join(dir, `payload-${name}.json`);
	if (!existsSync(file)) throw new Error(`the hook did not run: no ${file}`);
	return JSON.parse(readFileSync(file, "utf8"));
}

/** The environment the project's DUMP hook saw. */
export function dumpedEnv(dir: string, name: string): Record<string, string> {
	return Object.fromEntries(
		readFileSync(join(dir, `env-${name}.txt`), "utf8")
			.split("\n")
			.filter((l) => l.includes("="))
			.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
	);
}

/** Rejection message of a promise (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error("expected the call to be blocked, but it ran");
}
