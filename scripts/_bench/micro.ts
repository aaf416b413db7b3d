/**
 * A small in-process micro-benchmark: candidates are calibrated to a batch that takes about
 * `batchMs`, warmed up, then run in interleaved rounds (the order rotates every round) so that
 * drift on a busy machine hits every candidate alike. Each round yields ns/op per candidate; the
 * result is the median over rounds, and ratios are medians of the per-round ratios (paired).
 */

import { ratioSpread } from "./processes.ts";
import { formatSpread } from "./report.ts";

/** One thing to measure: `fn` is called once per operation; a returned promise is awaited. */
export interface Candidate {
	name: string;
	fn: () => unknown;
}

/** Options of {@link compare}. */
export interface CompareOptions {
	/** Measured rounds (default 15). */
	rounds?: number;
	/** Unmeasured rounds first, for the JIT (default 3). */
	warmupRounds?: number;
	/** Target duration of one batch in ms (default 4). */
	batchMs?: number;
}

/** The measurement of one candidate. */
export interface Measured {
	name: string;
	/** Median ns per operation over the rounds. */
	nsPerOp: number;
	/** ns/op of every round. */
	rounds: number[];
}

/** Measurements of candidates run side by side. */
export interface Comparison {
	results: Measured[];
	/** Median over rounds of `a / b`, measured in the same round: drift cancels out. */
	ratio(a: string, b: string): number;
	/** How the per-round ratios `a / b` spread, as a budget prints it (quartiles, extremes, rounds). */
	spread(a: string, b: string): string;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
	value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function";

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Nearest-rank percentile, `p` in 0..100. */
export function percentile(values: readonly number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank] as number;
}

/**
 * Runs `fn` `n` times and resolves the elapsed ns. Async only when `fn` returns a promise, so
 * a synchronous candidate is not charged for awaits it does not make.
 */
async function runBatch(fn: () => unknown, n: number): Promise<number> {
	const start = Bun.nanoseconds();
	for (let i = 0; i < n; i++) {
		const result = fn();
		if (isThenable(result)) await result;
	}
	return Bun.nanoseconds() - start;
}

/** Doubles the batch until it lasts `batchMs`. */
async function calibrate(fn: () => unknown, batchMs: number): Promise<number> {
	const target = batchMs * 1e6;
	let n = 1;
	for (;;) {
		const elapsed = await runBatch(fn, n);
		if (elapsed >= target / 2 || n >= 1 << 24) return Math.max(1, Math.round((n * target) / Math.max(elapsed, 1)));
		n *= 2;
	}
}

/** Measures the candidates side by side (see the module comment). */
export async function compare(candidates: readonly Candidate[], options: CompareOptions = {}): Promise<Comparison> {
	const rounds = options.rounds ?? 15;
	const warmup = options.warmupRounds ?? 3;
	const batchMs = options.batchMs ?? 4;
	const sizes: number[] = [];
	for (const candidate of candidates) sizes.push(await calibrate(candidate.fn, batchMs));
	const perRound: number[][] = candidates.map(() => []);
	for (let round = 0; round < warmup + rounds; round++) {
		for (let k = 0; k < candidates.length; k++) {
			const i = (k + round) % candidates.length;
			const n = sizes[i] as number;
			const ns = (await runBatch((candidates[i] as Candidate).fn, n)) / n;
			if (round >= warmup) (perRound[i] as number[]).push(ns);
		}
	}
	const index = (name: string) => {
		const i = candidates.findIndex((c) => c.name === name);
		if (i < 0) throw new Error(`no candidate named ${name}`);
		return i;
	};
	return {
		results: candidates.map((c, i) => ({ name: c.name, nsPerOp: median(perRound[i] as number[]), rounds: perRound[i] as number[] })),
		ratio(a, b) {
			const ra = perRound[index(a)] as number[];
			const rb = perRound[index(b)] as number[];
			return median(ra.map((value, i) => value / (rb[i] as number)));
		},
		spread(a, b) {
			return formatSpread(ratioSpread({ ms: perRound[index(a)] as number[] }, { ms: perRound[index(b)] as number[] }));
		},
	};
}
