/**
 * pi (no budget; reported): what one tool call costs that pi's extension (`install pi`) forwards to
 * `xcsh-hooks bridge pi`, measured inside Node as pi runs it: the extension file is loaded into a Node
 * process and its `tool_call` handler awaited in a loop, each call timed from the handler's start to
 * its answer. Rows: the same extension running the trivial compiled executable (the floor: Node's
 * spawn of one process), the bridge with 10 hooks and no server, and with `serve --socket` running.
 */
import { join } from "pathe";
import { extensionSource } from "../../src/agents/pi/extension.ts";
import { BIN, ensureExecutable, run, trivialExecutable } from "./binary.ts";
import { tempDir, writeFiles, writeGuardHooks } from "./fixtures.ts";
import { median, percentile } from "./micro.ts";
import { formatNs, type Report } from "./report.ts";

const CALLS = 30;

/** A Node script: loads the extension, awaits its tool_call handler CALLS times, prints the times (ms) as JSON. */
const TIMER = `import { pathToFileURL } from "node:url";
const [extension, cwd, calls] = process.argv.slice(2);
const handlers = {};
const mod = await import(pathToFileURL(extension).href);
mod.default({ on: (name, handler) => { handlers[name] = handler; } });
const ctx = { cwd, hasUI: false, sessionManager: { getSessionId: () => "bench" } };
const times = [];
for (let i = 0; i < Number(calls); i++) {
	const event = { type: "tool_call", toolName: "bash", toolCallId: "call_" + i, input: { command: "echo hi" } };
	const started = performance.now();
	const result = await handlers.tool_call(event, ctx);
	times.push(performance.now() - started);
	if (result && result.block) { console.error("blocked: " + result.reason); process.exit(1); }
}
console.log(JSON.stringify(times));
`;

/** Times one extension whose tool_call runs `command`, with `home` as HOME. */
async function timed(dir: string, name: string, command: string, home: string, project: string): Promise<number[]> {
	const file = join(dir, `${name}.mjs`);
	writeFiles(dir, { [`${name}.mjs`]: extensionSource({ tool_call: command }) });
	const node = Bun.which("node") as string;
	// No auto-started server: the cold row must stay cold (and leave nothing running); the served row
	// forwards to the server it started itself.
	const out = await run([node, join(dir, "timer.mjs"), file, project, String(CALLS)], project, {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		XCSH_HOOKS_SERVER: "off",
	});
	return JSON.parse(out) as number[];
}

/** The pi section. */
export async function benchPi(report: Report): Promise<void> {
	await report.section("pi", `one tool_call through the pi extension in Node (${CALLS} sequential calls each); no budget`);
	if (!Bun.which("node")) return report.note("node not found: the pi rows are skipped");
	await ensureExecutable(report);
	const trivial = await trivialExecutable("");
	const dir = tempDir("pi-ext");
	writeFiles(dir, { "timer.mjs": TIMER });
	const project = tempDir("pi-project");
	const home = tempDir("pi-home");
	const served = tempDir("pi-served");
	writeGuardHooks(join(home, ".xcsh", "agent", "hooks"), 10);
	writeGuardHooks(join(served, ".xcsh", "agent", "hooks"), 10);
	const bridge = `${BIN} bridge pi --installed-by=xcsh-hooks`;
	const rows: Array<[string, string, string]> = [
		["pi extension → trivial compiled executable (floor)", "trivial", trivial],
		["pi extension → bridge pi, 10 hooks, no server", "cold", bridge],
	];
	for (const [label, name, command] of rows) {
		const times = await timed(dir, name, command, home, project);
		await report.line(
			label,
			`${formatNs(median(times) * 1e6).padStart(8)} median  ${formatNs(percentile(times, 90) * 1e6).padStart(8)} p90`,
		);
	}
	const proc = Bun.spawn([BIN, "serve", "--socket"], {
		env: { PATH: process.env.PATH ?? "", HOME: served },
		stdout: "pipe",
		stderr: "inherit",
	});
	try {
		const { value } = await proc.stdout.getReader().read();
		if (!value || !new TextDecoder().decode(value).includes('"ready"')) throw new Error("serve --socket did not start");
		const times = await timed(dir, "served", bridge, served, project);
		await report.line(
			"pi extension → bridge pi, 10 hooks, serve --socket running",
			`${formatNs(median(times) * 1e6).padStart(8)} median  ${formatNs(percentile(times, 90) * 1e6).padStart(8)} p90`,
		);
	} finally {
		proc.kill("SIGTERM");
		await proc.exited;
	}
}
