/**
 * `serve --http` (docs/contract.md#performance-budgets): one Claude Code `type: "http"` hook request with 10 discovered hooks,
 * answered by a running `dist/xcsh-hooks serve --http 127.0.0.1:0`, timed from the client's
 * `fetch` to the last byte of the answer (keep-alive, as Claude's client), median and p99.
 */
import { readFileSync } from "node:fs";
import { join } from "pathe";
import { BIN, ensureExecutable, ROOT } from "./binary.ts";
import { tempDir, writeGuardHooks } from "./fixtures.ts";
import { median, percentile } from "./micro.ts";
import { lineReader } from "./processes.ts";
import { formatNs, type Report } from "./report.ts";

const WARMUP = 300;
const REQUESTS = 3000;

/** How many blocks the requests are timed in: p99 is judged on the blocks' median, one GC-heavy block cannot fail it. */
const BLOCKS = 3;

/** Times `requests` sequential requests; the answers must be the expected allow and deny. */
async function timeRequests(url: string, token: string, allow: string, deny: string, requests: number): Promise<number[]> {
	const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
	const denied = await (await fetch(url, { method: "POST", body: deny, headers })).text();
	if (!denied.includes('"permissionDecision":"deny"')) throw new Error(`expected a deny, got ${JSON.stringify(denied.slice(0, 200))}`);
	const times: number[] = [];
	for (let i = 0; i < WARMUP + requests; i++) {
		const start = Bun.nanoseconds();
		const response = await fetch(url, { method: "POST", body: allow, headers });
		const body = await response.text();
		const ms = (Bun.nanoseconds() - start) / 1e6;
		if (response.status !== 200 || body !== "") throw new Error(`request ${i}: ${response.status} ${body.slice(0, 200)}`);
		if (i >= WARMUP) times.push(ms);
	}
	return times;
}

/** The `serve --http` section. */
export async function benchHttp(report: Report): Promise<void> {
	await report.section(
		"serve --http",
		`${report.rounds(REQUESTS).toLocaleString("en")} sequential Claude PreToolUse requests in ${BLOCKS} blocks (after ${WARMUP} warm-up), 10 discovered hooks, keep-alive`,
	);
	await ensureExecutable(report);
	const home = tempDir("http-home");
	const project = tempDir("http-project");
	writeGuardHooks(join(home, ".xcsh", "agent", "hooks"), 10);
	const fixture = JSON.parse(readFileSync(join(ROOT, "test", "bridges", "fixtures", "claude", "PreToolUse.Bash.json"), "utf8"));
	const payload = (command: string) => JSON.stringify({ ...fixture, cwd: project, tool_input: { ...fixture.tool_input, command } });
	const proc = Bun.spawn([BIN, "serve", "--http", "127.0.0.1:0"], {
		cwd: project,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
		stdout: "pipe",
		stderr: "pipe",
	});
	const guard = setTimeout(() => proc.kill("SIGKILL"), 120_000);
	const fail = async (why: string) => {
		await report.line("serve --http", `failed: ${why}`);
		report.budget("serve --http request, 10 hooks: median", Number.NaN, 0.5, "serve --http failed", "ms");
		report.budget("serve --http request, 10 hooks: p99", Number.NaN, 2, "serve --http failed", "ms");
	};
	try {
		const next = lineReader(proc.stdout);
		const first = await Promise.race([next(), Bun.sleep(15_000).then(() => undefined)]);
		const ready = first ? (JSON.parse(first) as { params?: { url?: string } }) : undefined;
		if (!ready?.params?.url) return await fail(`no ready line (${await new Response(proc.stderr).text()})`);
		const token = readFileSync(join(home, ".xcsh", "agent", "http-token"), "utf8").trim();
		const blocks: number[][] = [];
		for (let b = 0; b < BLOCKS; b++)
			blocks.push(
				await timeRequests(ready.params.url, token, payload("ls -la"), payload("rm -rf /guard-7"), report.rounds(REQUESTS) / BLOCKS),
			);
		const times = blocks.flat();
		const p50 = median(times);
		const p99s = blocks.map((block) => percentile(block, 99)).sort((a, b) => a - b);
		const p99 = median(p99s);
		await report.line(
			"request → answer (allow, 10 hooks)",
			`${formatNs(p50 * 1e6).padStart(8)} median  ${formatNs(percentile(times, 90) * 1e6).padStart(8)} p90  ${formatNs(percentile(times, 99) * 1e6).padStart(8)} p99`,
		);
		const medians = blocks.map((block) => median(block)).sort((a, b) => a - b);
		const range = (values: number[]) => `${(values[0] as number).toFixed(3)}–${(values.at(-1) as number).toFixed(3)} ms`;
		report.budget(
			"serve --http request, 10 hooks: median",
			p50,
			0.5,
			undefined,
			"ms",
			`block medians ${range(medians)}, ${times.length} requests`,
		);
		report.budget("serve --http request, 10 hooks: p99", p99, 2, "median of the blocks' p99", "ms", `block p99s ${range(p99s)}`);
	} catch (error) {
		await fail(error instanceof Error ? error.message : String(error));
	} finally {
		clearTimeout(guard);
		proc.kill("SIGTERM");
		await proc.exited;
	}
}
