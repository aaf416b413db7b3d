#!/usr/bin/env bun
/**
 * Opt-in real-client suite (`bun run test:agents`): installs the pinned agent CLIs into `.cache/agents/`,
 * drives each one offline against a scripted model server on 127.0.0.1 and checks what the model received.
 * Not part of `bun test`: no file here matches its test-file patterns (`*.test.*`, `*_test.*`, `*.spec.*`, `*_spec.*`).
 *
 *   bun run test:agents [--agent claude,codex,gemini,copilot] [--keep] [--timeout SECONDS]
 *                       [--exe PATH (a built xcsh-hooks instead of building one)] [--no-bridge] [--no-netns]
 *                       [--case TEXT (only the cases whose name contains TEXT)]
 *
 * Setup (npm install, building the executable) runs here; the cases then run in a child process inside
 * its own network namespace with only loopback up, so no agent can reach anything but our model server.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { externalNetworkReachable, NETNS_PREFIX, netnsProblem } from "./isolate.ts";
import { type AgentId, PINS, pinOf } from "./pins.ts";
import { runCases } from "./run-cases.ts";
import { type SetupState, setup } from "./setup.ts";
import { printSummary } from "./summary.ts";

const { values } = parseArgs({
	options: {
		agent: { type: "string" },
		keep: { type: "boolean", default: false },
		case: { type: "string" },
		timeout: { type: "string", default: "120" },
		"no-netns": { type: "boolean", default: false },
		"no-bridge": { type: "boolean", default: false },
		exe: { type: "string" },
		// Internal: the cases phase, reading the setup phase's state.
		"cases-from": { type: "string" },
		network: { type: "string", default: "host network (not isolated)" },
	},
});
const wanted = (values.agent ?? Object.keys(PINS).join(",")).split(",").map((a) => a.trim()) as AgentId[];
for (const a of wanted) if (!(a in PINS)) throw new Error(`--agent: unknown agent "${a}"; known: ${Object.keys(PINS).join(", ")}`);
const timeoutMs = Number(values.timeout) * 1000;
if (!(timeoutMs > 0)) throw new Error(`--timeout: expected seconds > 0, got "${values.timeout}"`);
const log = (line: string) => console.error(`  · ${line}`);
const started = performance.now();

// The whole suite is bounded too: a wedged step cannot keep it alive.
setTimeout(() => {
	console.error("test:agents: suite time limit (30 min) reached; exiting");
	process.exit(3);
}, 30 * 60_000).unref();

/** The cases phase: run, summarise, exit. */
async function casesPhase(state: SetupState, network: string): Promise<never> {
	const header = [
		...wanted.map((a) => {
			const got = state.installs[a];
			const how = !got
				? "not installed"
				: "error" in got
					? "install failed"
					: got.downloaded
						? `downloaded in ${(got.ms / 1000).toFixed(1)} s`
						: "cached";
			return `${pinOf(a).pkg}@${pinOf(a).version} (${how})`;
		}),
		`network: ${network}`,
	];
	const reports = await runCases({ wanted, state, timeoutMs, keep: values.keep, only: values.case, log });
	process.exit(printSummary(header, reports, performance.now() - started) ? 1 : 0);
}

if (values["cases-from"]) {
	const state = JSON.parse(readFileSync(values["cases-from"], "utf8")) as SetupState;
	if (values.network.startsWith("own network namespace") && (await externalNetworkReachable())) {
		console.error("test:agents: the network namespace can reach 1.1.1.1; refusing to run agents");
		process.exit(3);
	}
	await casesPhase(state, values.network);
}

const work = mkdtempSync(join(tmpdir(), "xcsh-agents-"));
let code = 1;
try {
	console.error("setup");
	const state = await setup(wanted, work, { enabled: !values["no-bridge"], exe: values.exe && resolve(values.exe) }, log);
	const problem = values["no-netns"] ? "--no-netns" : await netnsProblem();
	if (problem) {
		log(`network isolation off (${problem}): agents get loopback-only settings but could reach the host network`);
		await casesPhase(state, `host network, not isolated (${problem})`);
	}
	const file = join(work, "state.json");
	writeFileSync(file, JSON.stringify(state));
	const args = [
		`--cases-from=${file}`,
		`--timeout=${values.timeout}`,
		`--agent=${wanted.join(",")}`,
		...(values.keep ? ["--keep"] : []),
		...(values.case ? [`--case=${values.case}`] : []),
	];
	const network = "own network namespace, loopback only (1.1.1.1 checked unreachable)";
	const child = Bun.spawn([...NETNS_PREFIX, process.execPath, import.meta.path, ...args, `--network=${network}`], {
		stdio: ["ignore", "inherit", "inherit"],
		env: process.env,
	});
	const limit = setTimeout(() => child.kill("SIGKILL"), 25 * 60_000);
	code = await child.exited;
	clearTimeout(limit);
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(code);
