// Templates are text assets: bundled into the compiled executable as strings, and named `*.txt`
// so neither `tsc` nor `bun test` mistakes them for the project's own code.
import commandTest from "./command.test.ts.txt" with { type: "text" };
import commandHook from "./command.ts.txt" with { type: "text" };
import contextTest from "./context.test.ts.txt" with { type: "text" };
import contextHook from "./context.ts.txt" with { type: "text" };
import guardTest from "./guard.test.ts.txt" with { type: "text" };
import guardHook from "./guard.ts.txt" with { type: "text" };
import redactTest from "./redact.test.ts.txt" with { type: "text" };
import redactHook from "./redact.ts.txt" with { type: "text" };
import shellScript from "./shell.sh.txt" with { type: "text" };
import shellTest from "./shell.test.ts.txt" with { type: "text" };
import statusTest from "./status.test.ts.txt" with { type: "text" };
import statusHook from "./status.ts.txt" with { type: "text" };

/** One file a template writes, relative to the hooks directory. */
export interface TemplateFile {
	relativePath: string;
	content: string;
	/** `hook`: a file discovery loads (and `init` approves); `test`: its bun:test file. */
	role: "hook" | "test";
	/** Written with mode 755. */
	executable?: boolean;
}

/** A scaffold `xcsh-hooks init` can write. */
export interface Template {
	/** One line for `--help` and error messages. */
	description: string;
	/** The hook's name when `init` is given none; a template without one needs a name. */
	defaultName?: string;
	/** The files for a hook called `name`, with `__NAME__` replaced by it. */
	files(name: string): TemplateFile[];
	/** An `xcsh-hooks` command line (argv after the program name) that shows the hook at work. */
	example(name: string): string[];
}

/** The placeholder every template uses for the hook's name. */
export const NAME_PLACEHOLDER = "__NAME__";

const fill = (text: string, name: string) => text.replaceAll(NAME_PLACEHOLDER, name);

const emit = (type: string, data: unknown) => ["emit", type, "--data", JSON.stringify(data)];
const dangerousCall = (toolName: string) => emit("tool_call", { toolName, input: { command: "rm -rf /" } });

/** A TypeScript hook module `<name>.ts` with its test `<name>.test.ts`. */
function moduleTemplate(description: string, hook: string, test: string, example: Template["example"], defaultName?: string): Template {
	return {
		description,
		example,
		...(defaultName ? { defaultName } : {}),
		files: (name) => [
			{ relativePath: `${name}.ts`, content: fill(hook, name), role: "hook" },
			{ relativePath: `${name}.test.ts`, content: fill(test, name), role: "test" },
		],
	};
}

/** Every template by name; `guard` is the default. */
export const TEMPLATES = {
	guard: moduleTemplate(
		"block dangerous bash commands (a command a rule asks about is put to the person at the terminal)",
		guardHook,
		guardTest,
		() => dangerousCall("bash"),
		"guard",
	),
	redact: moduleTemplate("redact secrets (API keys, AWS secrets, bearer tokens) from tool output", redactHook, redactTest, () =>
		emit("tool_result", {
			toolName: "bash",
			input: { command: "cat .env" },
			content: [{ type: "text", text: "API_KEY=sk-live-123" }],
			details: null,
			isError: false,
		}),
	),
	context: moduleTemplate("filter custom debug messages out of the model's context", contextHook, contextTest, (name) =>
		emit("context", {
			messages: [
				{ role: "user", content: "hello" },
				{ role: "custom", customType: `${name}-debug`, content: "noise", display: false },
			],
		}),
	),
	command: moduleTemplate("a slash command that notifies and appends a session entry", commandHook, commandTest, (name) => [
		"command",
		name,
		"remember this",
	]),
	status: moduleTemplate("show the agent's progress in the status line", statusHook, statusTest, () =>
		emit("turn_start", { turnIndex: 0, timestamp: 0 }),
	),
	shell: {
		description: "a POSIX shell script pre/<name>.sh gating the tool called <name> (exit 0 allows, exit 2 blocks)",
		example: dangerousCall,
		files: (name) => [
			{ relativePath: `pre/${name}.sh`, content: fill(shellScript, name), role: "hook", executable: true },
			{ relativePath: `pre/${name}.test.ts`, content: fill(shellTest, name), role: "test" },
		],
	},
} as const satisfies Record<string, Template>;

/** A template's name. */
export type TemplateName = keyof typeof TEMPLATES;

/** Template names in display order. */
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];

/** Whether `value` names a template. */
export function isTemplateName(value: string): value is TemplateName {
	return Object.hasOwn(TEMPLATES, value);
}
