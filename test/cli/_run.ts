import { join } from "node:path";
import { tempDir } from "../_helpers.ts";

export const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");

export interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs the CLI as a subprocess with a private HOME and no terminal. */
export async function runCli(
	args: string[],
	options: { cwd?: string; stdin?: string; home?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
	const proc = Bun.spawn(["bun", CLI, ...args], {
		cwd: options.cwd ?? tempDir(),
		stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
		stdout: "pipe",
		stderr: "pipe",
		env: {
			PATH: process.env.PATH ?? "",
			HOME: options.home ?? tempDir("xcsh-hooks-home-"),
			TMPDIR: process.env.TMPDIR ?? "/tmp",
			NO_COLOR: "1",
			...options.env,
		},
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, stdout, stderr };
}

/** A CLI failure a user sees: one clear line, never a stack trace. */
export function expectCleanError(run: CliRun, code: number, ...needles: string[]): void {
	if (run.code !== code) throw new Error(`expected exit ${code}, got ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
	if (/\n\s+at .+:\d+/.test(run.stderr)) throw new Error(`stack trace on stderr:\n${run.stderr}`);
	for (const needle of needles) if (!run.stderr.includes(needle)) throw new Error(`stderr lacks ${JSON.stringify(needle)}:\n${run.stderr}`);
}
