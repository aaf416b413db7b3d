/**
 * Each command's line in the top-level help: short enough for 80 columns next to the name, so no
 * summary is ever cut; the long text is in `<command> --help`. A command without one here shows the
 * first sentence of its description, wrapped.
 */
export const SUMMARIES: Partial<Record<string, string>> = {
	init: "Scaffold a typed hook and its test file",
	types: "Write type declarations for editors and tsc",
	list: "List the hooks and what will happen to each",
	check: "Load every hook and report what it registers",
	emit: "Dispatch one event to the hooks and print the result",
	run: "Run a built-in tool (bash, read, write, edit) through the hooks",
	command: "Run a slash command registered by a hook",
	schema: "Print the JSON Schema of an event and its result",
	trust: "Show or change the approval of the project's hooks",
	demo: "Run the example hooks over a scripted agent session",
	serve: "Run the hooks as a long-lived process (stdio, socket, HTTP)",
	bridge: "Answer another agent's hook call with these hooks",
	install: "Add the bridge to an agent's hook config",
	uninstall: "Remove the bridge from an agent's hook config",
	log: "Show the decision log: what the guards allowed or denied",
	guard: "Explain what the shell guard sees in a command",
	test: "Run hook tests with bun:test (no node_modules needed)",
	version: "Print the version of xcsh-hooks and of the Bun inside",
	completion: "Print a shell completion script (bash, zsh, fish)",
	help: "Show the help of a command",
};
