/** Timing whole processes: cold starts run interleaved; peak RSS of single runs. */

/** A process to start. */
export interface Command {
	name: string;
	argv: string[];
	/** Written to the child's stdin (a pipe), which is then closed. */
	stdin?: string;
	cwd?: string;
	env?: Record<string, string>;
}

/** Every run of one command. */
export interface Runs {
	/** Wall time of each run in ms, from spawn until exit with both pipes drained. */
	ms: number[];
	/** The first failing run, if any: exit code and stderr. */
	failure?: { code: number; stderr: string };
}

async function runOnce(command: Command): Promise<{ ms: number; code: number; stderr: string }> {
	const start = performance.now();
	const proc = Bun.spawn(command.argv, {
		cwd: command.cwd,
		env: command.env,
		stdin: command.stdin === undefined ? "ignore" : new TextEncoder().encode(command.stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	const [, stderr, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), new Response(proc.stderr).text(), proc.exited]);
	const ms = performance.now() - start;
	return { ms, code, stderr };
}

/**
 * Runs the commands in turns (one run of each per round, order rotating) so that load changes on
 * a shared machine spread over all of them; the first `warmup` rounds only warm the page cache.
 */
export async function timeProcesses(commands: readonly Command[], rounds: number, warmup = 3): Promise<Runs[]> {
	const runs: Runs[] = commands.map(() => ({ ms: [] }));
	for (let round = 0; round < warmup + rounds; round++) {
		for (let k = 0; k < commands.length; k++) {
			const i = (k + round) % commands.length;
			const command = commands[i] as Command;
			const run = await runOnce(command);
			const into = runs[i] as Runs;
			if (run.code !== 0) into.failure ??= { code: run.code, stderr: run.stderr.trim() };
			if (round < warmup) continue;
			into.ms.push(run.ms);
		}
	}
	return runs;
}

const TIME = "/usr/bin/time";

/**
 * Peak RSS of one run of `command` in bytes: `/usr/bin/time -f %M` when present, else a fresh
 * Bun process that spawns it once and reports its `resourceUsage().maxRSS` (a subprocess's
 * figure is only that child's while it is the parent's only child).
 */
export async function peakRss(command: Command): Promise<number> {
	const wrapped = (await Bun.file(TIME).exists())
		? [TIME, "-f", "%M", ...command.argv]
		: [
				process.execPath,
				"-e",
				`const p = Bun.spawn(${JSON.stringify(command.argv)}, { stdin: "inherit", stdout: "ignore", stderr: "ignore" }); await p.exited; console.error(Math.round(p.resourceUsage().maxRSS / 1024));`,
			];
	const run = await runOnce({ ...command, argv: wrapped });
	const kb = Number(run.stderr.trim().split("\n").at(-1));
	if (!Number.isFinite(kb)) throw new Error(`cannot read the peak RSS of ${command.name}: ${run.stderr.trim()}`);
	return kb * 1024;
}

/** Reads a child's stdout line by line. */
export function lineReader(stream: ReadableStream<Uint8Array>): () => Promise<string | undefined> {
	const reader = stream.getReader();
	const decoder = new TextDecoder();
	let buffer = "";
	return async () => {
		for (;;) {
			const newline = buffer.indexOf("\n");
			if (newline >= 0) {
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 1);
				return line;
			}
			const { done, value } = await reader.read();
			if (done) {
				const rest = buffer;
				buffer = "";
				return rest || undefined;
			}
			buffer += decoder.decode(value, { stream: true });
		}
	};
}
