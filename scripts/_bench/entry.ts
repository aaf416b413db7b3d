/**
 * What the entry `install` writes costs per agent call (budget: under 1 ms). Every command entry starts
 * the bridge through `/bin/sh -c '<remove BUN_*, MIMALLOC_*, NODE_PATH>; …'` (src/agents/_shared/entry-shell.ts):
 * one more shell, one fork to list the environment and, on the pre-tool event, a fork instead of an exec
 * (the shell waits to turn a missing answer into a block). Measured as an agent starts an entry (`sh -c
 * LINE`, the bench's own environment as the agent's) on the trivial compiled executable, so the rows are
 * the shell's cost alone: the median of the per-round differences to the same program started bare, in
 * CPU time of the whole process tree (what the machine spends; steadier than wall time on a shared
 * machine) and in wall time.
 */
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";
import { trivialExecutable } from "./binary.ts";
import { median, percentile } from "./micro.ts";
import type { Report } from "./report.ts";

const ROUNDS = 100;

interface Sample {
	wall: number;
	cpu: number;
}

/** One run: wall ms, and CPU ms of the process and every descendant it waited for. */
async function once(argv: string[], env: Record<string, string>): Promise<Sample> {
	const start = performance.now();
	const proc = Bun.spawn(argv, { env, stdin: new TextEncoder().encode("{}"), stdout: "ignore", stderr: "ignore" });
	const code = await proc.exited;
	const wall = performance.now() - start;
	if (code !== 0) throw new Error(`${argv.join(" ").slice(0, 120)} exited ${code}`);
	return { wall, cpu: Number(proc.resourceUsage()?.cpuTime.total ?? Number.NaN) / 1000 };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export async function benchEntry(report: Report): Promise<void> {
	const rounds = report.rounds(ROUNDS);
	await report.section(
		"install's entry",
		`sh -c LINE on the trivial compiled executable, ${rounds} interleaved rounds; extra = median of per-round differences to the bare line`,
	);
	const trivial = await trivialExecutable();
	const env = { ...(process.env as Record<string, string>) };
	const lines = [
		{ name: "bare: sh -c '<program>'", argv: ["/bin/sh", "-c", trivial] },
		// The unit the machine charges for one process: a budget in ms reads differently on a loaded machine.
		{ name: "unit: /bin/true, spawned directly", argv: ["/bin/true"] },
		{ name: "entry, pre-tool event (waits, blocks on no answer)", argv: ["/bin/sh", "-c", entryCommand(trivial, true)] },
		{ name: "entry, other events (exec)", argv: ["/bin/sh", "-c", entryCommand(trivial, false)] },
		// Auggie's pre-tool entry also starts a timer (a subshell and `sleep`), stopped when the call ends; the
		// CPU column misses the part of the timer that ends after the shell (wall does not).
		{ name: "entry, pre-tool event with a 54 s deadline (Auggie)", argv: ["/bin/sh", "-c", entryCommand(trivial, true, 54)] },
	];
	const samples: Sample[][] = lines.map(() => []);
	for (let round = 0; round < rounds + 3; round++)
		for (let k = 0; k < lines.length; k++) {
			const i = (k + round) % lines.length;
			const sample = await once((lines[i] as (typeof lines)[number]).argv, env);
			if (round >= 3) (samples[i] as Sample[]).push(sample);
		}
	const bare = samples[0] as Sample[];
	for (const [i, line] of lines.entries()) {
		const own = samples[i] as Sample[];
		const times = `${ms(median(own.map((s) => s.cpu)))} cpu, ${ms(median(own.map((s) => s.wall)))} wall (medians)`;
		if (i <= 1) {
			await report.line(line.name, times);
			continue;
		}
		const cpu = own.map((s, r) => s.cpu - (bare[r] as Sample).cpu);
		const wall = own.map((s, r) => s.wall - (bare[r] as Sample).wall);
		await report.line(line.name, `${times}  → +${ms(median(cpu))} cpu, +${ms(median(wall))} wall per call`);
		if (i === 2) {
			const unit = median((samples[1] as Sample[]).map((s) => s.cpu));
			await report.note(`the pre-tool entry adds ${(median(cpu) / unit).toFixed(1)}× the CPU of spawning /bin/true (${ms(unit)} here)`);
			report.budget(
				"install's entry: extra CPU per call (pre-tool form) vs the bare command",
				median(cpu),
				1,
				`same run; wall +${ms(median(wall))}`,
				"ms",
				`IQR ${ms(percentile(cpu, 25))}–${ms(percentile(cpu, 75))}, ${cpu.length} rounds`,
			);
		}
	}
}
