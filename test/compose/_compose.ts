/**
 * Shared pieces of the composition tests (docs/contract.md#the-runner, #the-tool-wrapper, #shell-hooks): hook sources that redact, rewrite and
 * guard, a temp project to put them in, and the two ways a user starts `xcsh-hooks` — `bun src/cli.ts`
 * and the compiled executable, built once per test file into a temp dir. Every process has a private
 * HOME and is killed when its time is up.
 */
import { afterAll, beforeAll } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { createBuiltinTools, type HookError, HookRunner, HookToolWrapper, loadHooks } from "xcsh-hooks";
import { buildExecutable } from "../../scripts/build.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const CLI_SOURCE = join(ROOT, "src", "cli.ts");

/** Replaces `pattern` in every text block of a tool result; a hook module's source. */
function redactor(pattern: string, replacement: string): string {
	return `export default function (pi) {
	pi.on("tool_result", (event) => ({
		content: event.content.map((c) => (c.type === "text" ? { ...c, text: c.text.replaceAll(${pattern}, ${JSON.stringify(replacement)}) } : c)),
	}));
}
`;
}

export const REDACT_KEYS = redactor("/API_KEY=\\S+/g", "API_KEY=***");
export const REDACT_EMAILS = redactor("/[\\w.+-]+@[\\w-]+\\.[\\w.]+/g", "<email>");

/** A tool output with one secret of each kind, and what it reads as once both redactors ran. */
export const SECRET_TEXT = "API_KEY=s3cr3t owner=ops@example.com";
export const REDACTED_TEXT = "API_KEY=*** owner=<email>";

/**
 * A shell post hook (docs/contract.md#shell-hooks): keeps the event it got on stdin in `seen.json` of the project, and
 * answers that event's content with e-mail addresses redacted.
 */
export const SHELL_REDACT_EMAILS = `#!/bin/sh
tee "$XCSH_PROJECT_DIR/seen.json" | sed -E 's/.*"content":(\\[[^]]*\\]).*/{"content":\\1}/; s/[A-Za-z0-9._+-]+@[A-Za-z0-9-]+\\.[A-Za-z0-9.]+/<email>/g'
`;

/** A shell post hook answering the content it got with API keys redacted. */
export const SHELL_REDACT_KEYS = `#!/bin/sh
sed -E 's/.*"content":(\\[[^]]*\\]).*/{"content":\\1}/; s/API_KEY=[^ ]+/API_KEY=***/g'
`;

/** A shell hook printing `json` on stdout and exiting 0. */
export const shellPrinting = (json: object) => `#!/bin/sh
cat > /dev/null
echo '${JSON.stringify(json)}'
`;

/** Appends ` --dry-run` to any bash command that lacks it. */
export const DRY_RUN = `export default function (pi) {
	pi.on("tool_call", (event) => {
		const command = String(event.input.command ?? "");
		if (event.toolName === "bash" && !command.includes("--dry-run")) return { input: { ...event.input, command: command + " --dry-run" } };
	});
}
`;

/** Prefixes every bash command with `echo ` (a second rewriter, to see two chained). */
export const ECHO_PREFIX = `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (event.toolName === "bash") return { input: { ...event.input, command: "echo " + event.input.command } };
	});
}
`;

/** Blocks a bash command unless it carries --dry-run, quoting what it saw. */
export const DRY_RUN_GUARD = `export default function (pi) {
	pi.on("tool_call", (event) => {
		const command = String(event.input.command ?? "");
		if (event.toolName === "bash" && !command.includes("--dry-run")) return { block: true, reason: "guard saw: " + command };
	});
}
`;

/** A hook module whose `event` handler returns `result` (a JS expression). */
export const returning = (event: string, result: string) => `export default (pi) => pi.on(${JSON.stringify(event)}, () => (${result}));\n`;

/** A temp project holding `files` (`*.sh` made executable); its real path, as the CLI will see its cwd. */
export function project(files: Record<string, string> = {}): string {
	const dir = realpathSync(tempDir("xcsh-compose-"));
	writeFiles(dir, files);
	return dir;
}

/**
 * Hooks loaded from `paths` (relative to `dir`) into a real runner, with the real built-in tools of
 * `dir` wrapped by it; `reported` collects what reaches `onError`. Fails on any load error.
 */
export async function loaded(dir: string, paths: string[]) {
	const { hooks, errors } = await loadHooks(paths, dir);
	if (errors.length > 0) throw new Error(`load errors: ${JSON.stringify(errors)}`);
	const runner = new HookRunner(hooks, dir);
	const reported: HookError[] = [];
	runner.onError((e) => reported.push(e));
	const tools = createBuiltinTools(dir);
	return {
		runner,
		reported,
		bash: new HookToolWrapper(tools.bash, runner),
		read: new HookToolWrapper(tools.read, runner),
	};
}

/** A private HOME for one process. */
export const privateHome = () => tempDir("xcsh-compose-home-");

/** One way of starting `xcsh-hooks`. */
export interface Cli {
	readonly name: string;
	argv(args: string[]): string[];
}

/**
 * Both CLIs. Call at the top level of a test file: it builds the executable once for that file
 * (into a temp dir under the preload's TMPDIR, removed after the run).
 */
export function useClis(): readonly Cli[] {
	let bin = "";
	beforeAll(async () => {
		bin = (await buildExecutable({ outfile: join(tempDir("xcsh-compose-bin-"), "xcsh-hooks") })).outfile;
	}, 120_000);
	afterAll(killLeftovers);
	return [
		{ name: "bun src/cli.ts", argv: (args) => [process.execPath, CLI_SOURCE, ...args] },
		{ name: "compiled executable", argv: (args) => [bin, ...args] },
	];
}

export interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

const live = new Set<Bun.Subprocess>();

function killLeftovers(): void {
	for (const proc of live) proc.kill("SIGKILL");
	live.clear();
}

/** Options of {@link runCli}. */
export interface RunOptions {
	stdin?: string;
	/** HOME of the process (default: a fresh private one). */
	home?: string;
	/** Files written into the process's private HOME first (e.g. user-level hooks). */
	homeFiles?: Record<string, string>;
	/** SIGKILL after this long (default 15 s). */
	timeoutMs?: number;
}

/** Runs `xcsh-hooks <args…>` in `cwd` with only PATH, a private HOME and TMPDIR in its environment; bounded. */
export async function runCli(cli: Cli, args: string[], cwd: string, options: RunOptions = {}): Promise<Run> {
	const home = options.home ?? privateHome();
	writeFiles(home, options.homeFiles ?? {});
	const proc = Bun.spawn(cli.argv(args), {
		cwd,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
		stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	live.add(proc);
	const timer = setTimeout(() => proc.kill("SIGKILL"), options.timeoutMs ?? 15_000);
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	clearTimeout(timer);
	live.delete(proc);
	return { code: proc.signalCode ? null : code, stdout, stderr };
}

/** One line `serve` wrote. */
export type ServeLine = { id?: unknown; method?: string; params?: any; result?: any; error?: { code: string; message: string } };

/**
 * `xcsh-hooks serve` as a real process: the requests go to its stdin, which is then closed (the
 * server answers them and exits); resolves every line it wrote and its exit code.
 */
export async function serveOnce(
	cli: Cli,
	args: string[],
	cwd: string,
	requests: object[],
): Promise<{ lines: ServeLine[]; code: number | null; stderr: string }> {
	const stdin = `${requests.map((r) => JSON.stringify(r)).join("\n")}\n`;
	const run = await runCli(cli, ["serve", "--no-discovery", "--no-watch", ...args], cwd, { stdin });
	const lines = run.stdout
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as ServeLine);
	return { lines, code: run.code, stderr: run.stderr };
}

/** The response to request `id`, or a failure that shows everything the server wrote. */
export function answer(served: { lines: ServeLine[]; stderr: string }, id: unknown): ServeLine {
	const line = served.lines.find((l) => l.id === id);
	if (!line) throw new Error(`no response to ${JSON.stringify(id)}; lines: ${JSON.stringify(served.lines)}\nstderr: ${served.stderr}`);
	return line;
}

/** The text blocks of a tool result, joined. */
export const textOf = (content: readonly { type: string; text?: string }[]) =>
	content.flatMap((c) => (c.type === "text" ? [c.text as string] : [])).join("\n");
