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
	/** What the first run wrote, to check the answer was the expected one. */
	sample?: { stdout: string; stderr: string };
}

/**
 * The median over rounds of `a.ms[r] / b.ms[r]`: both ran in the same round of
 * {@link timeProcesses}, so a noisy moment on the machine hits both sides of each ratio.
 */
export function pairedRatio(a: Runs, b: Runs): number {
	const ratios = a.ms.map((ms, round) => ms / (b.ms[round] as number)).filter(Number.isFinite);
	const sorted = ratios.sort((x, y) => x - y);
	const mid = sorted.length >> 1;
	return sorted.length === 0
		? Number.NaN
		: sorted.length % 2
			? (sorted[mid] as number)
			: ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** How the per-round ratios of {@link pairedRatio} spread: quartiles and extremes over `rounds`. */
export interface RatioSpread {
	median: number;
	q1: number;
	q3: number;
	min: number;
	max: number;
	rounds: number;
}

/** The per-round ratios `a.ms[r] / b.ms[r]` summarised: the budget's value is their median. */
export function ratioSpread(a: Runs, b: Runs): RatioSpread {
	const ratios = a.ms
		.map((ms, round) => ms / (b.ms[round] as number))
		.filter(Number.isFinite)
		.sort((x, y) => x - y);
	const at = (q: number) => {
		if (ratios.length === 0) return Number.NaN;
		const pos = (ratios.length - 1) * q;
		const lo = Math.floor(pos);
		const hi = Math.ceil(pos);
		return (ratios[lo] as number) + ((ratios[hi] as number) - (ratios[lo] as number)) * (pos - lo);
	};
	return { median: pairedRatio(a, b), q1: at(0.25), q3: at(0.75), min: at(0), max: at(1), rounds: ratios.length };
}

/** One run of `command`: wall time, exit code, and its stderr. */
export async function runOnce(command: Command): Promise<{ ms: number; code: number; stderr: string; stdout: string }> {
	const start = performance.now();
	const proc = Bun.spawn(command.argv, {
		...(command.cwd === undefined ? {} : { cwd: command.cwd }),
		...(command.env === undefined ? {} : { env: command.env }),
		stdin: command.stdin === undefined ? "ignore" : new TextEncoder().encode(command.stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	const ms = performance.now() - start;
	return { ms, code, stderr, stdout };
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
			into.sample ??= { stdout: run.stdout, stderr: run.stderr };
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
