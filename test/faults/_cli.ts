/**
 * The two ways a user starts the CLI, for fault tests that must hold for both: the compiled
 * executable (built by scripts/build.ts into a temp dir) and `bun src/cli.ts`. Every process is
 * bounded: it is SIGKILLed when its time is up, and its pipes are read for a short while after it
 * ended, so a grandchild holding them open cannot hang a test either.
 */
import { afterAll, beforeAll } from "bun:test";
import { existsSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildExecutable } from "../../scripts/build.ts";
import { tempDir } from "./_fixtures.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const CLI_SOURCE = join(ROOT, "src", "cli.ts");

/** One way of starting `xcsh-hooks`. */
export interface Cli {
	readonly name: string;
	/** The argv that runs `xcsh-hooks <args…>`. */
	argv(args: string[]): string[];
}

// Test files share modules within one `bun test` run: the executable is built once per run (and again
// if a file's cleanup removed it).
let building: Promise<string> | undefined;
let bin = "";

async function build(): Promise<string> {
	const { outfile } = await buildExecutable({ outfile: join(tempDir("xcsh-faults-bin-"), "xcsh-hooks") });
	return outfile;
}

/** Both CLIs; call at the top of a test file (it registers the build and the cleanup). */
export function useClis(): readonly Cli[] {
	beforeAll(async () => {
		if (!building || (bin && !existsSync(bin))) building = build();
		bin = await building;
	}, 120_000);
	afterAll(killLeftovers);
	return CLIS;
}

export const CLIS: readonly Cli[] = [
	{ name: "compiled executable", argv: (args) => [bin, ...args] },
	{ name: "bun src/cli.ts", argv: (args) => [process.execPath, CLI_SOURCE, ...args] },
];

/**
 * A PATH whose first folder holds an `xcsh-hooks` that runs `cli` (the compiled executable linked, or a
 * script starting the source), then this process's PATH: what a teammate's machine with xcsh-hooks
 * installed gives the entries `install --project` writes (they name `xcsh-hooks`, found on PATH).
 */
export function pathWith(cli: Cli): string {
	const dir = tempDir("xcsh-faults-path-");
	const [program, ...rest] = cli.argv([]);
	const target = join(dir, "xcsh-hooks");
	if (rest.length === 0) symlinkSync(program as string, target);
	else writeFileSync(target, `#!/bin/sh\nexec ${[program, ...rest].map((w) => JSON.stringify(w)).join(" ")} "$@"\n`, { mode: 0o755 });
	return `${dir}:${process.env.PATH ?? "/usr/bin:/bin"}`;
}

/** The path of the compiled executable (after `useClis()`'s beforeAll ran). */
export const executablePath = (): string => bin;

const live = new Set<Bun.Subprocess>();

function killLeftovers(): void {
	for (const proc of live) proc.kill("SIGKILL");
	live.clear();
}

/** A minimal environment: PATH, the given HOME, TMPDIR, no colours. */
export function minimalEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
	return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1", ...extra };
}

export interface RunOptions {
	cwd: string;
	home: string;
	/** Text or bytes on stdin; stdin is closed when absent. */
	stdin?: string | Uint8Array;
	env?: Record<string, string>;
	/** SIGKILL after this long (default 10 s). */
	timeoutMs?: number;
}

export interface Run {
	/** Exit code; `null` when the process was killed by the test's timeout. */
	code: number | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	ms: number;
}

/** Accumulates a stream; `stop()` cancels the read and keeps what arrived. */
function collect(stream: ReadableStream<Uint8Array>) {
	const reader = stream.getReader();
	const decoder = new TextDecoder();
	let text = "";
	const done = (async () => {
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				text += decoder.decode(value, { stream: true });
			}
		} catch {}
	})();
	return {
		text: () => text,
		done,
		stop: () => reader.cancel().catch(() => {}),
	};
}

/** Waits for the pipes to close, at most `graceMs` after the process ended. */
async function drain(streams: ReturnType<typeof collect>[], graceMs = 1000): Promise<void> {
	const all = Promise.all(streams.map((s) => s.done));
	const timer = Bun.sleep(graceMs).then(() => "late" as const);
	if ((await Promise.race([all, timer])) === "late") for (const s of streams) await s.stop();
}

/** Runs an argv with a minimal environment, bounded by `timeoutMs`. */
export async function runArgv(argv: string[], options: RunOptions): Promise<Run> {
	const started = performance.now();
	const proc = Bun.spawn(argv, {
		cwd: options.cwd,
		env: minimalEnv(options.home, options.env),
		stdin:
			options.stdin === undefined ? "ignore" : typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin,
		stdout: "pipe",
		stderr: "pipe",
	});
	live.add(proc);
	const out = collect(proc.stdout);
	const err = collect(proc.stderr);
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		proc.kill("SIGKILL");
	}, options.timeoutMs ?? 10_000);
	const code = await proc.exited;
	clearTimeout(timer);
	live.delete(proc);
	await drain([out, err]);
	return { code: timedOut ? null : code, stdout: out.text(), stderr: err.text(), timedOut, ms: performance.now() - started };
}

/** Runs `xcsh-hooks <args…>` with one of the CLIs. */
export function runCli(cli: Cli, args: string[], options: RunOptions): Promise<Run> {
	return runArgv(cli.argv(args), options);
}

/** One line the server wrote. */
export type Line = { id?: unknown; method?: string; params?: any; result?: any; error?: { code: string; message: string } };

export interface Served {
	/** Lines of stdout that parsed as JSON, in order. */
	lines: Line[];
	/** Lines of stdout that did not parse as JSON (each one a protocol violation). */
	garbage: string[];
	send(...requests: object[]): void;
	/** The response to `id`; rejects when the server exits first or after `timeoutMs`. */
	response(id: unknown, timeoutMs?: number): Promise<Line>;
	/** Closes stdin and waits (bounded) for the exit; the process is SIGKILLed after `timeoutMs`. */
	close(timeoutMs?: number): Promise<{ code: number | null; timedOut: boolean; ms: number }>;
	stderr(): string;
	exited: Promise<number>;
}

/** `xcsh-hooks serve <args…>` as a real process, its stdout parsed line by line. */
export function serveCli(cli: Cli, args: string[], options: Omit<RunOptions, "stdin" | "timeoutMs">): Served {
	const proc = Bun.spawn(cli.argv(["serve", ...args]), {
		cwd: options.cwd,
		env: minimalEnv(options.home, options.env),
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	live.add(proc);
	// A safety net for a test that forgets to close: no server outlives 30 s.
	const guard = setTimeout(() => proc.kill("SIGKILL"), 30_000);
	let exitCode: number | undefined;
	const exited = proc.exited.then((code) => {
		exitCode = code;
		clearTimeout(guard);
		live.delete(proc);
		return code;
	});
	const lines: Line[] = [];
	const garbage: string[] = [];
	let raw = "";
	const take = (part: string) => {
		try {
			lines.push(JSON.parse(part));
		} catch {
			garbage.push(part);
		}
	};
	const out = (async () => {
		const decoder = new TextDecoder();
		try {
			for await (const chunk of proc.stdout) {
				raw += decoder.decode(chunk, { stream: true });
				const parts = raw.split("\n");
				raw = parts.pop() ?? "";
				for (const part of parts) take(part);
			}
		} catch {}
		if (raw) take(raw); // a last line without its newline is checked too
		raw = "";
	})();
	const err = collect(proc.stderr);

	const send = (...requests: object[]) => {
		try {
			proc.stdin.write(`${requests.map((r) => JSON.stringify(r)).join("\n")}\n`);
			proc.stdin.flush();
		} catch {} // the server is gone: the response wait reports it
	};
	const response = async (id: unknown, timeoutMs = 8000): Promise<Line> => {
		const deadline = performance.now() + timeoutMs;
		for (;;) {
			const found = lines.find((l) => l.id === id);
			if (found) return found;
			if (exitCode !== undefined) {
				await out;
				const late = lines.find((l) => l.id === id);
				if (late) return late;
				throw new Error(`the server exited with code ${exitCode} before answering ${JSON.stringify(id)}; stderr:\n${err.text()}`);
			}
			if (performance.now() > deadline)
				throw new Error(`no response to ${JSON.stringify(id)} within ${timeoutMs} ms; stderr:\n${err.text()}`);
			await Bun.sleep(10);
		}
	};
	const close = async (timeoutMs = 8000) => {
		const started = performance.now();
		try {
			proc.stdin.end();
		} catch {}
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			proc.kill("SIGKILL");
		}, timeoutMs);
		const code = await exited;
		clearTimeout(timer);
		await Promise.race([out, Bun.sleep(1000)]);
		await drain([err]);
		return { code: timedOut ? null : code, timedOut, ms: performance.now() - started };
	};
	return { lines, garbage, send, response, close, stderr: err.text, exited };
}

/**
 * Runs `body` against a server, then closes its stdin. When `body` passed, the server must also have
 * written only JSON lines to stdout and exited with `exitCode` (default 0) once stdin closed.
 */
export async function withServer(server: Served, body: () => Promise<void>, exitCode: number | "non-zero" = 0): Promise<void> {
	try {
		await body();
	} catch (error) {
		await server.close(2000);
		throw error;
	}
	const closed = await server.close();
	if (server.garbage.length) throw new Error(`serve wrote non-JSON lines to stdout: ${JSON.stringify(server.garbage)}`);
	const ok = exitCode === "non-zero" ? closed.code !== null && closed.code !== 0 : closed.code === exitCode;
	if (!ok)
		throw new Error(
			`after stdin closed, serve ${closed.timedOut ? "did not exit until killed" : `exited with ${closed.code}`} (expected ${exitCode}); stderr:\n${server.stderr()}`,
		);
}

/** Per-test timeout: every process a test starts is bounded well below it (Bun's default is 5 s). */
export const CELL_TIMEOUT_MS = 60_000;
