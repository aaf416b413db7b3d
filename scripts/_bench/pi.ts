/**
 * pi and OpenClaw (reported; the served rows against the 1 ms target): what one tool call costs that
 * pi's extension (`install pi`) or OpenClaw's plugin (`install openclaw`) forwards, measured inside Node
 * as the agent runs it: the file is loaded into a Node process and its tool-call handler awaited in a
 * loop, each call timed from the handler's start to its answer. Rows: the extension running the trivial
 * compiled executable (the floor of a process per call), the bridge with 10 hooks and no server (cold:
 * a process per call), the bridge process forwarding to `serve --socket`, and the plugins talking to the
 * server over its socket themselves (no process).
 */
import { join } from "pathe";
import { extensionSource } from "../../src/agents/pi/extension.ts";
import { packageFiles, pluginSource } from "../../src/agents/openclaw/plugin.ts";
import { BIN, ensureExecutable, run, trivialExecutable } from "./binary.ts";
import { tempDir, writeFiles, writeGuardHooks } from "./fixtures.ts";
import { median, percentile } from "./micro.ts";
import { formatNs, type Report } from "./report.ts";

const CALLS = 30;

/**
 * A Node script: loads the pi extension (a default function) or the OpenClaw plugin (a default
 * `{register}`), awaits its tool-call handler CALLS times, prints the times (ms) as JSON.
 */
const TIMER = `import { pathToFileURL } from "node:url";
const [extension, cwd, calls] = process.argv.slice(2);
const handlers = {};
const mod = await import(pathToFileURL(extension).href);
const api = { on: (name, handler) => { handlers[name] = handler; }, registerAgentToolResultMiddleware() {}, config: { agents: { defaults: { workspace: cwd } } } };
const openclaw = typeof mod.default.register === "function";
if (openclaw) mod.default.register(api);
else mod.default(api);
const ctx = { cwd, hasUI: false, sessionManager: { getSessionId: () => "bench" }, sessionKey: "agent:main:main", sessionId: "bench" };
const times = [];
for (let i = 0; i < Number(calls); i++) {
	const event = openclaw
		? { toolName: "exec", toolCallId: "call_" + i, params: { command: "echo hi" } }
		: { type: "tool_call", toolName: "bash", toolCallId: "call_" + i, input: { command: "echo hi" } };
	const started = performance.now();
	const result = await handlers[openclaw ? "before_tool_call" : "tool_call"](event, ctx);
	times.push(performance.now() - started);
	if (result && result.block) { console.error("blocked: " + (result.reason ?? result.blockReason)); process.exit(1); }
}
console.log(JSON.stringify(times));
`;

/** What each row loads: pi's extension or OpenClaw's plugin entry, for `command`, served or not. */
type Source = (command: string) => string;
const piSource =
	(served = false): Source =>
	(command) =>
		extensionSource({ tool_call: command }, undefined, served);
const openclawSource =
	(served = false): Source =>
	(command) =>
		packageFiles(pluginSource({ before_tool_call: command }, served))["index.mjs"] as string;

/** Times one extension whose tool_call runs `command`, with `home` as HOME. */
async function timed(dir: string, name: string, source: Source, command: string, home: string, project: string): Promise<number[]> {
	const file = join(dir, `${name}.mjs`);
	writeFiles(dir, { [`${name}.mjs`]: source(command) });
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
	await report.section(
		"pi",
		`one tool call through the pi extension and the OpenClaw plugin in Node (${CALLS} sequential calls each); target for the socket rows: 1 ms`,
	);
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
	const openclawBridge = `${BIN} bridge openclaw --installed-by=xcsh-hooks`;
	const rows: Array<[string, string, Source, string]> = [
		["pi extension → trivial compiled executable (floor)", "trivial", piSource(), trivial],
		["pi extension → bridge pi, 10 hooks, no server (cold)", "cold", piSource(true), bridge],
		["OpenClaw plugin → bridge openclaw, 10 hooks, no server (cold)", "oc-cold", openclawSource(true), openclawBridge],
	];
	for (const [label, name, source, command] of rows) {
		const times = await timed(dir, name, source, command, home, project);
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
		// The socket rows carry the Node agents' budget: ≤ 1 ms added inside the agent's process when served.
		const servedRows: Array<[string, string, Source, string, string?]> = [
			["pi extension → bridge pi process → serve --socket, 10 hooks", "forwarded", piSource(), bridge],
			["pi extension → serve --socket over its socket (no process), 10 hooks", "served", piSource(true), bridge, "pi"],
			[
				"OpenClaw plugin → serve --socket over its socket (no process), 10 hooks",
				"oc-served",
				openclawSource(true),
				openclawBridge,
				"OpenClaw",
			],
		];
		for (const [label, name, source, command, agent] of servedRows) {
			const times = await timed(dir, name, source, command, served, project);
			await report.line(
				label,
				`${formatNs(median(times) * 1e6).padStart(8)} median  ${formatNs(percentile(times, 90) * 1e6).padStart(8)} p90`,
			);
			if (agent) report.budget(`${agent}: a served tool call inside the agent's process (10 hooks)`, median(times), 1, undefined, "ms");
		}
	} finally {
		proc.kill("SIGTERM");
		await proc.exited;
	}
}
