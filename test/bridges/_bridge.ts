import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";

/** Root of the copied agent payloads (real client captures; Cursor's are written from its docs). */
export const FIXTURES = join(import.meta.dir, "fixtures");
export const ROOT = join(import.meta.dir, "..", "..");
export const CLI = join(ROOT, "src", "cli.ts");

/** A fixture payload as an object; `cwd` (and Cursor's `workspace_roots`) pointed at `project` when given. */
export function fixture(agent: string, file: string, project?: string): Record<string, unknown> {
	const payload = JSON.parse(readFileSync(join(FIXTURES, agent, file), "utf8")) as Record<string, unknown>;
	if (project !== undefined) {
		payload.cwd = project;
		if (Array.isArray(payload.workspace_roots)) payload.workspace_roots = [project];
		if (Array.isArray(payload.workspaceRoots)) payload.workspaceRoots = [project];
		if (payload.workspaceInfo) payload.workspaceInfo = { ...(payload.workspaceInfo as object), rootPath: project };
	}
	return payload;
}

/** Hook files every bridge test loads with `--hook`: real modules on disk. */
export const HOOKS: Record<string, string> = {
	"policy.ts": `export default function (pi) {
	pi.on("tool_call", (event) => {
		const command = event.toolName === "bash" ? String(event.input.command) : "";
		if (command.includes("rm -rf")) return { block: true, reason: "POLICY: rm -rf is not allowed" };
		if (command === "echo REWRITE-ME") return { input: { ...event.input, command: "echo REWRITTEN-BY-HOOK" } };
	});
	pi.on("tool_result", () => ({ content: [{ type: "text", text: "REPLACED-BY-HOOK" }] }));
	pi.on("before_agent_start", () => ({ message: { customType: "policy", content: "CONTEXT-FROM-HOOK", display: false } }));
}
`,
	"broken.ts": `import { nothing } from "no-such-package-anywhere";\nexport default (pi) => pi.on("tool_call", () => nothing);\n`,
	"throws.ts": `export default (pi) => {
	pi.on("tool_call", () => { throw new Error("GUARD-CRASHED"); });
	pi.on("before_agent_start", () => { throw new Error("PROMPT-HOOK-CRASHED"); });
};\n`,
	"hangs.ts": `export default (pi) => pi.on("tool_call", () => new Promise(() => {}));\n`,
	"invalid.ts": `export default (pi) => pi.on("tool_call", () => ({ blok: true }));\n`,
	"noisy.ts": `console.log("HOOK-NOISE-AT-LOAD");
export default (pi) => {
	pi.on("tool_call", (event) => {
		console.log("HOOK-NOISE-IN-HANDLER");
		process.stdout.write("HOOK-NOISE-WRITE\\n");
		if (String(event.input.command).includes("rm -rf")) return { block: true, reason: "NOISY: no" };
	});
};\n`,
};

/** A project folder with the test hooks, and a private HOME beside it. */
export function workspace(): { project: string; home: string; hook(name: string): string } {
	const root = tempDir("xcsh-bridge-");
	const project = join(root, "project");
	const home = join(root, "home");
	mkdirSync(project);
	mkdirSync(home);
	for (const [name, text] of Object.entries(HOOKS)) writeFileSync(join(project, name), text);
	return { project, home, hook: (name) => join(project, name) };
}

/** What one bridge process did. */
export interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `argv` with `stdin` (a string, raw bytes, or nothing), only PATH and the given HOME/env, in `cwd`. */
export async function spawnRun(
	argv: string[],
	options: { stdin?: string | Uint8Array; home: string; cwd: string; env?: Record<string, string> | undefined },
): Promise<Run> {
	const stdin =
		options.stdin === undefined ? "ignore" : typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin;
	const proc = Bun.spawn(argv, {
		cwd: options.cwd,
		stdin,
		stdout: "pipe",
		stderr: "pipe",
		env: {
			PATH: process.env.PATH ?? "/usr/bin:/bin",
			HOME: options.home,
			TMPDIR: process.env.TMPDIR ?? "/tmp",
			NO_COLOR: "1",
			...options.env,
		},
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, stdout, stderr };
}

/** The parsed answer, or `undefined` for an empty stdout; fails loudly on anything else than one JSON line. */
export function answerOf(run: Run): unknown {
	if (run.code !== 0) throw new Error(`exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
	if (run.stdout === "") return undefined;
	if (!run.stdout.endsWith("\n") || run.stdout.trimEnd().includes("\n"))
		throw new Error(`stdout is not exactly one line:\n${run.stdout}\nstderr: ${run.stderr}`);
	try {
		return JSON.parse(run.stdout);
	} catch {
		throw new Error(`stdout is not JSON:\n${run.stdout}\nstderr: ${run.stderr}`);
	}
}
