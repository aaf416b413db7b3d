import { XcshError } from "../../errors.ts";
import { execCommand, type ExecResult } from "../../exec/exec-command.ts";
import type { AgentHookEntry } from "../../agents/_shared/entry.ts";
import { ownHooksOf } from "./own-hooks.ts";

/** `$VAR` / `${VAR}` for each of the agent's project variables. */
export function projectVariablePattern(names: readonly string[]): RegExp {
	return names.length === 0 ? /(?!)/g : new RegExp(`\\$\\{?(?:${names.join("|")})\\}?`, "g");
}

/**
 * How the agent starts the entry: a command string through a shell — `sh -c` (Claude Code, Codex,
 * Cursor; `bash -c` for Claude's `shell: "bash"` and for Gemini CLI, which uses bash) — or, with
 * Claude's `args`, the program itself with those arguments and no shell (`$CLAUDE_PROJECT_DIR` in them
 * is replaced by the project directory). Event data is never part of the command line: it goes on stdin.
 */
export function commandArgv(entry: AgentHookEntry, projectDir: string): string[] {
	const own = ownHooksOf(entry.agent);
	if (entry.args) {
		const variables = projectVariablePattern(own.projectVariables);
		return [entry.command, ...entry.args].map((word) => word.replace(variables, projectDir));
	}
	if (entry.shell && entry.shell !== "bash" && entry.shell !== "sh")
		throw new XcshError("HOOK_LOAD", `${entry.file}: ${entry.key}.shell ${JSON.stringify(entry.shell)} is not supported here (bash or sh)`);
	const bash = entry.shell === "bash" || (own.quirks?.bashWhenAvailable === true && Bun.which("bash") !== null);
	return [bash ? "bash" : "sh", "-c", entry.command];
}

/** What one run is given. */
export interface RunCommandOptions {
	/** The project directory (the agent's session cwd). */
	projectDir: string;
	payload: unknown;
	/** The agent's variables, added to the inherited environment. */
	env: Record<string, string>;
	timeoutMs: number;
}

/**
 * Runs the entry once: the payload as JSON on stdin, in the project directory (Cursor user hooks: in
 * `~/.cursor`), killed with its process group at the timeout. A command that cannot start rejects.
 */
export function runAgentCommand(entry: AgentHookEntry, options: RunCommandOptions): Promise<ExecResult> {
	const [program, ...args] = commandArgv(entry, options.projectDir);
	return execCommand(program as string, args, entry.runDir ?? options.projectDir, {
		timeout: options.timeoutMs,
		input: JSON.stringify(options.payload),
		env: { ...process.env, ...options.env },
	});
}
