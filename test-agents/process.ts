/** Options of {@link runProcess}. */
export interface RunOptions {
	cwd: string;
	env: Record<string, string | undefined>;
	/** Kill the process group after this many milliseconds. */
	timeoutMs: number;
	/** Text for stdin; default: none (/dev/null). */
	stdin?: string;
}

/** What a finished (or killed) process left. */
export interface RunResult {
	code: number | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	ms: number;
}

/**
 * Runs `cmd` and resolves when it exits or after `timeoutMs`, when it is killed (TERM, then KILL
 * after 2 s). The child is its own process group, so helpers it spawned die with it.
 */
export async function runProcess(cmd: string[], options: RunOptions): Promise<RunResult> {
	const started = performance.now();
	const proc = Bun.spawn(cmd, {
		cwd: options.cwd,
		env: options.env,
		stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
		stdout: "pipe",
		stderr: "pipe",
		detached: true,
	});
	let timedOut = false;
	const killGroup = (signal: NodeJS.Signals) => {
		try {
			process.kill(-proc.pid, signal);
		} catch {
			proc.kill(signal);
		}
	};
	const timer = setTimeout(() => {
		timedOut = true;
		killGroup("SIGTERM");
		setTimeout(() => killGroup("SIGKILL"), 2000).unref();
	}, options.timeoutMs);
	const out = new Response(proc.stdout).text();
	const err = new Response(proc.stderr).text();
	const code = await proc.exited;
	clearTimeout(timer);
	// Whatever the agent left running in its group (an MCP helper, a shell) goes too, so the pipes close.
	try {
		process.kill(-proc.pid, "SIGKILL");
	} catch {}
	const [stdout, stderr] = await Promise.all([out, err]);
	return { code, stdout, stderr, timedOut, ms: performance.now() - started };
}
