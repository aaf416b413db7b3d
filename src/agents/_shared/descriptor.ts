import type { AgentBridge } from "./bridge-types.ts";
import type { Dialect } from "./dialect.ts";
import type { AgentHookFolders } from "./hook-folders.ts";
import type { InProcessAgent } from "./inprocess.ts";
import type { AgentSpec } from "./install-spec.ts";
import type { MatchMode } from "./matcher.ts";

/*
 * What the project knows about one agent, as the generic machinery reads it: the bridge flow, the
 * forwarding client, the agent-config provider, approval, `install`. Each agent folder exports one
 * descriptor (`src/agents/<agent>/index.ts`) and the registry (`src/agents/index.ts`) lists them.
 * A descriptor holds small facts and loaders: the heavy parts (bridge tables, dialect, transcript
 * reader, install spec) load only when a call needs them.
 */

/** One config file an agent reads its own command hooks from. */
export interface AgentConfigPlace {
	level: "user" | "project";
	/** Absolute path of the file. */
	file: string;
	/** Project files: the project they belong to. */
	projectDir?: string;
	/** Where the agent runs these entries when not the project (Cursor user hooks: `~/.cursor`). */
	runDir?: string;
}

/** How an agent's own command hooks are found, read and run inside our runner. */
export interface AgentOwnHooks {
	/** The discovery provider's id (a bridge excludes its own agent's one: the agent runs those hooks itself). */
	providerId: string;
	displayName: string;
	description: string;
	/** Discovery priority (higher first). */
	priority: number;
	/**
	 * `grouped`: `hooks.<Event>: [{matcher?, hooks: [handler]}]`; `flat`: `hooks.<event>: [handler]`;
	 * `files`: each place is a folder of executables named after the events (Cline).
	 */
	layout: "grouped" | "flat" | "files";
	/** The files, best first, for a project directory and a home. */
	places(ctx: { cwd: string; home: string }): AgentConfigPlace[];
	/** Milliseconds per unit of the entry's `timeout` field. */
	timeoutUnitMs: number;
	/** The agent's own default timeout of a command hook, in ms. */
	defaultTimeoutMs: number;
	/** How the agent reads a matcher. */
	matchMode: MatchMode;
	/** Variables its commands name the project directory with (`$CLAUDE_PROJECT_DIR`): approval resolves them. */
	projectVariables: readonly string[];
	/** Config details only some agents have. */
	quirks?: {
		/** Keys beside the events in `hooks` that are not events (Gemini: `enabled`, `disabled`, `notifications`). */
		controlKeys?: readonly string[];
		/** `hooks.enabled: false` turns all off and `hooks.disabled` lists handler names that are off (Gemini). */
		enabledSwitch?: boolean;
		/** Handlers may give `args` (exec form, no shell) and `shell` (Claude). */
		execForm?: boolean;
		/** Command strings run with bash when it is installed (Gemini), else sh. */
		bashWhenAvailable?: boolean;
	};
	/** Its rules for running one entry (events, payload, environment, answers). */
	dialect(): Dialect;
}

/** One agent. */
export interface AgentDescriptor {
	/** The `bridge <agent>` / `install <agent>` name; also the folder of its session files. */
	name: string;
	/** Name for messages ("Claude Code"). */
	label: string;
	/**
	 * Seconds after which a bridge call answers by itself (a guard: deny): below the agent's default hook
	 * timeout and the timeout `install` writes, since most agents let a call run when a hook times out.
	 */
	timeoutSeconds: number;
	/** The environment variable the agent sets to the project directory for its hooks, if any. */
	projectVariable?: string | undefined;
	/** Its protocol when our hooks run inside it. */
	bridge(): Promise<AgentBridge>;
	/** What `install` writes. */
	install(): AgentSpec;
	/** Agents that load our plugin into their own process: its plugin hooks (absent: command hooks only). */
	inProcess?: () => InProcessAgent;
	/** Its own command hooks, run by our runner (absent: we do not read its config). */
	ownHooks?: AgentOwnHooks;
	/** Folders of hook files in a layout named after it (`.claude/hooks/{pre,post}`), run by our runner (absent: none). */
	hookFolders?: AgentHookFolders;
}
