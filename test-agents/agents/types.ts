import type { Checks } from "../checks.ts";
import type { ModelApi, SeenToolResult, ToolStep } from "../model/types.ts";
import type { RunResult } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { AgentId, AgentPin } from "../pins.ts";

/** The hook commands of one run, by role; each agent maps the roles to its own event names. */
export interface HookCommands {
	/** Pre-tool guard (Claude/Codex `PreToolUse`, Gemini `BeforeTool`, Copilot `preToolUse`). */
	pre: string;
	/** Post-tool (Claude/Codex `PostToolUse`, Gemini `AfterTool`, Copilot `postToolUse`). */
	post: string;
	/** Prompt submit (Claude/Codex `UserPromptSubmit`, Gemini `BeforeAgent`, Copilot `userPromptSubmitted`). */
	prompt: string;
	/** Subagent start and stop, where the agent has them (Claude/Codex/Copilot `SubagentStart`/`SubagentStop`). */
	subagent?: string;
}

/** How the who-acts cases (a subagent, an MCP server) drive one agent. */
export interface ActorSupport {
	/** The main agent's call that starts a subagent doing `task` (Claude `Agent`, Codex `spawn_agent`, Gemini `invoke_agent`, Copilot `task`). */
	spawn?(task: string): ToolStep;
	/** Main-agent calls after the spawn (Codex: wait for the subagent it started). */
	afterSpawn?: ToolStep[];
	/** Writes the agent's MCP config: one stdio server `files` run by `command`; absent: the MCP case is not driven. */
	mcp?(sandbox: Sandbox, command: string[]): void;
	/** Runs the agent for these cases instead of {@link AgentDriver.run} (OpenClaw: through its Gateway, where subagents start). */
	run?(bin: string, sandbox: Sandbox, baseUrl: string, prompt: string, timeoutMs: number, requests: () => number): Promise<RunResult>;
	/** The agent's deny of an MCP call ends the whole run, so no result reaches the model (Cline: `cancel`). */
	mcpDenyEndsRun?: true;
	/** Whether the agent's payloads name the subagent that made a call (Gemini's do not). */
	namesSubagent: boolean;
	/** Whether the agent has subagent start/stop hook events (and `HookCommands.subagent` is wired). */
	subagentEvents: boolean;
}

/** How the suite drives one agent. */
export interface AgentDriver {
	id: AgentId;
	/** The npm package and version the suite installs. */
	pin: AgentPin;
	/** `init guard` + `install <agent>` and nothing else is enough to guard it (the others need their own trust steps). */
	installAlone?: boolean;
	/** It loads our plugin in its own process (OpenCode, Kilo): the plugin cases run instead of the command-hook ones. */
	inProcess?: boolean;
	/** The folders the agent loads plugins from (project, then user), relative to the sandbox root. */
	pluginDirs?: readonly string[];
	/** The model API its client speaks. */
	api: ModelApi;
	/** Writes the agent's user settings and the project's hook config into the sandbox. */
	configure(sandbox: Sandbox, hooks: HookCommands): void;
	/**
	 * Writes the agent's user settings with the hook commands in the user's own config instead (what
	 * `install <agent> --user` gives), for an agent that reads its project hook config only in the folder
	 * it was started in (Claude Code, Gemini CLI): an agent started in a subfolder runs those.
	 */
	configureUser?(sandbox: Sandbox, hooks: HookCommands): void;
	/**
	 * Runs the agent once, non-interactively, against the model server at `baseUrl`; `prefix` (a program
	 * and its arguments that end by running the rest, e.g. a mount namespace) goes in front of the command.
	 */
	run(bin: string, sandbox: Sandbox, baseUrl: string, prompt: string, timeoutMs: number, prefix?: string[]): Promise<RunResult>;
	/** The hand-written self-check answers in this agent's own protocol. */
	selfcheck: {
		deny(reason: string): string;
		context(text: string): string;
		/** The post-tool answer that replaces `response` (the payload's tool output) with `redact` applied, in the agent's own form. */
		redact(response: unknown, redact: (text: string) => string): string;
	};
	/**
	 * What the agent's protocol cannot do, so the typed-hook cases do not expect it (`redact: false`: it has
	 * no answer that replaces a tool output; `context: false`: no prompt context reaches the model).
	 */
	cannot?: { redact?: false; context?: false };
	/**
	 * The agent masks secret-looking values in tool output itself (OpenClaw: `sk-liv…6789`), so the
	 * control run cannot show the secret reaching the model; it shows the hooks' redaction marker absent instead.
	 */
	masksSecrets?: true;
	/**
	 * Its plugin talks to the hook server over the socket itself (pi, OpenClaw): the bridge case starts a
	 * server first and checks that no call ran the bridge as a process.
	 */
	servedByItself?: true;
	/** Also run the case where a hook fails to load (an unknown event name): every tool call must be blocked. */
	loadErrorCase?: boolean;
	/** Checks only this agent promises (run after the standard ones, when the guard is expected to deny). */
	guardChecks?(checks: Checks, denied: SeenToolResult | undefined): void;
	/** The subagent and MCP cases; absent: not driven for this agent. */
	actor?: ActorSupport;
	/** Where the agent's final text shows up in its output, for a last check; undefined when it has no machine form. */
	finalText?(run: RunResult): string | undefined;
}
