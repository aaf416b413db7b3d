import type { Checks } from "../checks.ts";
import type { ModelApi, SeenToolResult } from "../model/types.ts";
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
	/** Runs the agent once, non-interactively, against the model server at `baseUrl`. */
	run(bin: string, sandbox: Sandbox, baseUrl: string, prompt: string, timeoutMs: number): Promise<RunResult>;
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
	/** Checks only this agent promises (run after the standard ones, when the guard is expected to deny). */
	guardChecks?(checks: Checks, denied: SeenToolResult | undefined): void;
	/** Where the agent's final text shows up in its output, for a last check; undefined when it has no machine form. */
	finalText?(run: RunResult): string | undefined;
}
