import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "pathe";
import { homeDir, userAgentDir } from "../paths.ts";
import { isTemplateName, type Template, TEMPLATE_NAMES, TEMPLATES, type TemplateFile, type TemplateName } from "../templates/index.ts";
import { approveHook } from "../discovery/covered.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { defaultTypesDir, type EditorSetup, setUpEditor } from "./types.ts";
import { cliError, EXIT_OK, projectArgs, printJson, projectDir, writeOut, defineCommand } from "./_shared.ts";
import { projectRootFor } from "./_project-root.ts";
import { unknownName } from "../suggest.ts";

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** `name` if it is a valid hook name, else a {@link cliError} saying what is allowed. */
function validateHookName(name: string): string {
	if (NAME.test(name)) return name;
	throw cliError(
		`invalid hook name ${JSON.stringify(name)}: use lowercase letters, digits, "-" and "_", starting with a letter or digit (e.g. my-guard)`,
	);
}

function templateOf(value: string): TemplateName {
	if (isTemplateName(value)) return value;
	throw cliError(unknownName("template", value, TEMPLATE_NAMES));
}

/** A file to write, with its absolute path. */
interface Target extends TemplateFile {
	path: string;
}

/** Every target that already exists, checked before anything is written. */
function existing(targets: Target[]): Target[] {
	return targets.filter(({ path }) => {
		try {
			lstatSync(path); // lstat: a dangling symlink is in the way too
			return true;
		} catch {
			return false;
		}
	});
}

async function writeTargets(targets: Target[]): Promise<void> {
	for (const target of targets) {
		mkdirSync(dirname(target.path), { recursive: true });
		await Bun.write(target.path, target.content);
		if (target.executable) chmodSync(target.path, 0o755);
	}
}

/** `arg` as a POSIX shell word (`~/` left unquoted so the shell still expands it). */
const quote = (arg: string): string => {
	if (/^[\w@%+=:,./~-]+$/.test(arg)) return arg;
	return `'${arg.replaceAll("'", `'\\''`)}'`;
};

/**
 * Approves each file written, the hook and its test, in the user's trust store: both are project code
 * that runs (`xcsh-hooks test` runs a project test file only once it is approved); returns the paths.
 */
async function approveHooks(targets: Target[]): Promise<string[]> {
	const store = new TrustStore();
	const approved: string[] = [];
	for (const target of targets) {
		try {
			await approveHook(store, target.path);
		} catch (error) {
			throw cliError(`wrote ${target.path}, but could not approve it: ${(error as Error).message}`);
		}
		approved.push(target.path);
	}
	return approved;
}

/** Paths as the user can paste them where they ran `init`: `./x` below it, `~/x` below HOME, else absolute. */
function displayPath(user: boolean): (path: string) => string {
	const here = process.cwd();
	const home = homeDir();
	return (path) => {
		const rel = relative(here, path);
		if (!user && !rel.startsWith("..") && !rel.startsWith("/")) return `./${rel}`;
		return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
	};
}

interface NextStepsInput {
	name: string;
	template: Template;
	targets: Target[];
	cwd: string;
	user: boolean;
}

/**
 * Shell commands to run next: the hook's test, `check`, then the hook at work. Each is an `xcsh-hooks`
 * command, so they work with nothing but the executable (`test` serves the library to the test).
 */
function nextSteps({ name, template, targets, cwd, user }: NextStepsInput): string[] {
	const show = (path: string) => quote(displayPath(user)(path));
	// --cwd goes right after the subcommand, so `command <name> [args…]` cannot take it for an argument.
	const cwdFlag = cwd === process.cwd() ? [] : ["--cwd", show(cwd)];
	const [subcommand, ...rest] = template.example(name);
	const test = targets.find((t) => t.role === "test");
	return [
		...(test ? [`xcsh-hooks test ${show(test.path)}`] : []),
		["xcsh-hooks", "check", ...cwdFlag].join(" "),
		["xcsh-hooks", subcommand, ...cwdFlag, ...rest.map(quote)].join(" "),
	];
}

/** `xcsh-hooks init <name>`: writes a hook from a template plus its test, never overwriting without `--force`. */
export const initCommand = defineCommand({
	meta: {
		name: "init",
		description: "Scaffold a typed hook and its test file",
		details:
			"Scaffold a typed hook and its bun:test file in .xcsh/hooks (or ~/.xcsh/agent/hooks with --user). " +
			"With --template shell the name is the tool the script gates: `init bash --template shell` writes pre/bash.sh.",
	},
	args: {
		name: {
			type: "positional",
			required: false,
			description:
				'Hook name: lowercase letters, digits, - and _ (default for --template guard: "guard"; for --template shell: the tool it gates, e.g. bash)',
		},
		template: {
			type: "string",
			default: "guard",
			description: `Template: ${TEMPLATE_NAMES.join(" | ")}`,
			valueHint: "name",
		},
		user: { type: "boolean", description: "Write to ~/.xcsh/agent/hooks instead of the project's .xcsh/hooks" },
		force: { type: "boolean", description: "Overwrite existing files" },
		...projectArgs,
	},
	async run({ args }) {
		const templateName = templateOf(String(args.template));
		const template: Template = TEMPLATES[templateName];
		const given = args.name ?? template.defaultName;
		if (given === undefined)
			throw cliError(`--template ${templateName} needs a hook name: xcsh-hooks init <name> --template ${templateName}`);
		const name = validateHookName(String(given));
		// Project hooks go to the project root when run below it (said on stderr), where every call finds them.
		const cwd = args.user ? projectDir(args.cwd) : await projectRootFor(projectDir(args.cwd));
		const dir = args.user ? join(userAgentDir(), "hooks") : join(cwd, ".xcsh", "hooks");
		const targets: Target[] = template.files(name).map((file) => ({ ...file, path: join(dir, file.relativePath) }));

		const inTheWay = args.force ? [] : existing(targets);
		if (inTheWay.length > 0)
			throw cliError(
				`${inTheWay.map((t) => t.path).join(", ")} already exist${inTheWay.length === 1 ? "s" : ""}; nothing written (pass --force to overwrite)`,
			);
		await writeTargets(targets);

		// User hooks run without approval; project hooks need the user's approval of this exact content.
		const approved = args.user ? [] : await approveHooks(targets);
		// Editor types are a convenience: a folder in the way is a warning, not a failed init.
		let editor: EditorSetup | undefined;
		let editorProblem: string | undefined;
		try {
			editor = await setUpEditor(defaultTypesDir(cwd, Boolean(args.user)), dir);
		} catch (error) {
			editorProblem = (error as Error).message;
		}
		const next = nextSteps({ name, template, targets, cwd, user: Boolean(args.user) });

		if (args.json) {
			await printJson({
				template: templateName,
				dir,
				files: targets.map(({ path, role }) => ({ path, role, approved: approved.includes(path) })),
				types: editor ? { dir: editor.typesDir, tsconfig: editor.tsconfig ?? null } : { error: editorProblem },
				next,
			});
			return EXIT_OK;
		}
		const show = displayPath(Boolean(args.user));
		const lines = [
			`Created ${templateName} hook "${name}":`,
			...targets.map((t) => `  ${show(t.path)}${approved.includes(t.path) ? "  (approved in the trust store)" : ""}`),
		];
		if (editor?.tsconfig) lines.push(`  ${show(editor.tsconfig)}  (editor types in ${show(editor.typesDir)})`);
		else if (editor) lines.push(`Editor types refreshed in ${show(editor.typesDir)}`);
		else lines.push(`No editor types: ${editorProblem}`);
		if (templateName === "shell")
			lines.push(`It gates calls of the tool "${name}" (the file's stem); rename it to gate another tool, or to *.sh for all.`);
		lines.push("", "Next:", ...next.map((step) => `  ${step}`));
		await writeOut(lines.join("\n"));
		return EXIT_OK;
	},
});
