import { join, resolve } from "pathe";

/* What `install` writes for one agent (each agent folder's `install.ts` gives one {@link AgentSpec}). */

/** Project or user level config. */
export type Scope = "project" | "user";

/** One event entry `install` writes. */
export interface AgentEvent {
	/** The agent's own event name, exactly as its config spells it. */
	name: string;
	/** The xcsh event it maps to (docs/agents.md#what-maps-to-what). */
	xcsh: string;
	/** Tool events get `"*"`; omitted means every occurrence of the event. */
	matcher?: string;
	/** Events whose action a failed hook should block (Claude `onFailure`, Cursor `failClosed`). */
	guard?: boolean;
}

/** Everything `install` needs to know about one agent's hook config. */
export interface AgentSpec {
	id: string;
	/** Name for messages. */
	label: string;
	/** The config file at each level (`files` layout: the folder of the executables). */
	file(scope: Scope, dir: string): string;
	/**
	 * `grouped`: `hooks.<Event>` is a list of `{matcher?, hooks: [handler]}` (Claude, Codex, Gemini);
	 * `flat`: `hooks.<event>` is a list of handlers (Cursor, Copilot);
	 * `files`: one executable per event, named after it, in the folder `file` names (Cline); {@link script} gives its text.
	 */
	layout: "grouped" | "flat" | "files" | "plugin" | "package";
	/** `package` layout (OpenClaw): a plugin folder of ours, registered in the agent's JSON config. */
	package?: PackageSpec;
	/**
	 * `plugin` layout (agents that load plugins in-process): the one file written into the folder `file`
	 * names, and its text, which imports the plugin runtime from `runtime` (an absolute path).
	 */
	plugin?: { fileName: string; text(runtime: string): string };
	/** `files` layout: the text of one event's executable, which runs `command` (it must hold {@link scriptMarker}). */
	script?(event: AgentEvent, command: string): string;
	/** `files` layout: the mode of the written files (default 0755: executables). */
	fileMode?: number;
	/** The handler field that holds the shell command. */
	commandKey: "command" | "bash";
	/** The top level of a new file, before the `hooks` key. */
	base: Record<string, unknown>;
	events: AgentEvent[];
	/** The handler object for one event. */
	handler(event: AgentEvent, command: string): Record<string, unknown>;
	/** The handler object for one event answered by `serve --http` at `url` (agents with http hooks only). */
	httpHandler?(event: AgentEvent, url: string): Record<string, unknown>;
	/** What an http install still needs before the entries work, printed after it. */
	httpNotes?(url: string): string[];
	/** What the agent still needs before the entries run, printed after an install. */
	notes(scope: Scope, dir: string): string[];
	/** The agent's managed (administrator) configuration, when it has one (`install --managed`). */
	managed?: ManagedSpec;
	/**
	 * Seconds after which a pre-tool entry's shell ends a bridge call still running and blocks the call
	 * (src/agents/_shared/entry-shell.ts): for an agent that runs the call when its own hook timeout passes,
	 * set below that timeout. Absent: the agent's timeout is the only one.
	 */
	entryDeadlineSeconds?: number;
}

/**
 * A plugin folder `install` writes and registers in the agent's JSON config (the `package` layout):
 * `uninstall` removes the files holding {@link PackageSpec.marker} and exactly the config values
 * install set (a value the user changed since is left, and said).
 */
export interface PackageSpec {
	/** The plugin folder at each level (`dir`: the project or the home). */
	dir(scope: Scope, dir: string): string;
	/** The agent's config file the registration goes into, for a home. */
	config(home: string): string;
	/** The folder's files, by name, for the bridge `command`. */
	files(command: string): Record<string, string>;
	/** The text every file install writes holds: uninstall removes only files that hold it. */
	marker: string;
	/** The registration: each config value by its key path, or a string that must be in the list at its path. */
	settings(scope: Scope, folder: string): PackageSetting[];
}

/** One config value a `package` install sets (`value`) or adds to a list (`item`). */
export type PackageSetting = { path: string[]; value: unknown } | { path: string[]; item: string };

/** Where an agent reads the configuration an administrator deploys, per OS, as its documentation gives it. */
export interface ManagedSpec {
	/** The managed config file on Linux, macOS and Windows (same layout as {@link AgentSpec.file}'s). */
	files: { linux: string; darwin: string; win32: string };
	/** The top-level key that makes the agent run managed hooks only (`--only-managed`); absent: it has none. */
	onlyManagedKey?: string;
	/**
	 * Also pin `<table>.<key> = true` (TOML only), with or without `--only-managed`: Codex turns every hook
	 * off, managed ones too, when the user's config sets `[features] hooks = false`, unless
	 * requirements.toml pins it on.
	 */
	alsoPin?: { table: string; key: string };
	/**
	 * A dotted key (`hooksConfig.enabled`, JSON only) every managed install sets to `true`: the agent's
	 * switch for all hooks, which its managed file overrides (Gemini CLI's system settings win over the
	 * user's and the project's). Recorded like the switch, so uninstall puts back what was there.
	 */
	pin?: string;
	/**
	 * How a user or a project can still switch the managed entries off, when the agent leaves a way (one
	 * sentence, no final period): `--only-managed` is then refused with it, and the install prints it.
	 */
	userSwitchOff?: string;
	/** `toml`: the file is TOML with hooks as `[[hooks.<Event>]]` tables (Codex `requirements.toml`); default JSON. */
	format?: "toml";
	/** What the agent still needs, printed after a managed install. */
	notes?: string[];
}

/**
 * The line that marks an executable `install` wrote (`files` layout): `uninstall` removes exactly the
 * files holding it, and `install` never overwrites a file without it.
 */
export const scriptMarker = (agent: string): string =>
	`# Written by \`xcsh-hooks install ${agent}\`; \`xcsh-hooks uninstall ${agent}\` removes this file. Its only job is to run the bridge.`;

/**
 * The line that marks a plugin file `install` wrote (`plugin` layout, a TypeScript comment): `uninstall`
 * removes exactly a file holding it, and `install` never overwrites a file without it.
 */
export const pluginMarker = (agent: string): string =>
	`// Written by \`xcsh-hooks install ${agent}\`; \`xcsh-hooks uninstall ${agent}\` removes this file.`;

// One timeout for every event: long enough for a hook that asks the network, short of the agents'
// 600 s defaults, in each agent's own unit (Gemini: ms; the others: seconds).
export const TIMEOUT_S = 60;

/**
 * The environment variable an http entry's `Authorization` header names (`Bearer $XCSH_HOOKS_TOKEN`):
 * Claude Code expands it from its own environment, and only when `allowedEnvVars` lists it (an
 * unlisted one becomes an empty string). It also marks an http entry as ours.
 */
export const HTTP_TOKEN_VARIABLE = "XCSH_HOOKS_TOKEN";

/** A note when the agent's own home variable points elsewhere than the user-level file written. */
export function homeOverride(scope: Scope, variable: string, written: string, file: string): string[] {
	const value = process.env[variable];
	if (scope !== "user" || !value || resolve(value) === written) return [];
	return [
		`${variable} is set: the agent reads ${join(resolve(value), file)}, not this file; run with ${variable} unset or copy the entries there.`,
	];
}
