/** The in-process plugin (OpenCode, Kilo Code): what it adds to one tool call with 10 hooks loaded. */
import { join } from "pathe";
import { run } from "./binary.ts";
import { tempDir, writeFiles, writeGuardHooks } from "./fixtures.ts";
import type { Report } from "./report.ts";

const ENTRY = join(import.meta.dir, "..", "..", "src", "inprocess", "entry.ts");

/**
 * Run in a child process with its own HOME: imports the plugin file as the agent does, then times
 * `tool.execute.before` + `tool.execute.after` of an allowed bash call (what every tool call pays),
 * median of 30 rounds of 200 calls after a warm-up. Prints the median in ms.
 */
const CHILD = `
const mod = await import(process.argv[2]);
const factory = Object.values(mod).find((v) => typeof v === "function");
const hooks = await factory({ directory: process.cwd(), worktree: process.cwd() });
const call = async (i) => {
	const args = { command: "git status", description: "d" };
	await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" + i }, { args });
	const output = { title: "git status", output: "clean\\n", metadata: { output: "clean\\n", exit: 0 } };
	await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c" + i, args }, output);
};
// The 10 hooks are loaded: the 10th blocks its command (else the row would time an empty plugin).
const blocked = await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "g" }, { args: { command: "rm -rf /guard-10" } }).then(() => false, () => true);
if (!blocked) throw new Error("the 10 guard hooks did not load");
for (let i = 0; i < 500; i++) await call(i);
const rounds = [];
for (let r = 0; r < 30; r++) {
	const t = performance.now();
	for (let i = 0; i < 200; i++) await call(i);
	rounds.push((performance.now() - t) / 200);
}
rounds.sort((a, b) => a - b);
console.log(rounds[15]);
await hooks.dispose?.();
process.exit(0);
`;

export async function benchInProcess(report: Report): Promise<void> {
	await report.section(
		"in-process plugin",
		"tool.execute.before + after of one allowed call, 10 hooks, inside the agent's process (median)",
	);
	for (const agent of [
		{ name: "OpenCode", dir: ".opencode", exportName: "XcshOpenCodePlugin" },
		{ name: "Kilo Code", dir: ".kilo", exportName: "XcshKiloPlugin" },
	]) {
		const home = tempDir("xcsh-bench-inproc-home-");
		const proj = tempDir("xcsh-bench-inproc-proj-");
		// User-level hooks run without approval; the same 10 guards as the other rows.
		writeGuardHooks(join(home, ".xcsh", "agent", "hooks"), 10);
		const plugin = join(proj, agent.dir, "plugin", "xcsh-hooks.ts");
		writeFiles(proj, { [`${agent.dir}/plugin/xcsh-hooks.ts`]: `export { ${agent.exportName} } from ${JSON.stringify(ENTRY)};\n` });
		writeFiles(proj, { "child.ts": CHILD });
		const out = await run([process.execPath, join(proj, "child.ts"), plugin], proj, {
			PATH: process.env.PATH ?? "/usr/bin:/bin",
			HOME: home,
		});
		const ms = Number(out.trim().split("\n").at(-1));
		await report.line(`${agent.name}: one tool call, 10 hooks`, Number.isFinite(ms) ? `${(ms * 1000).toFixed(1)} µs` : "failed");
		report.budget(`${agent.name} in-process decision (10 hooks)`, Number.isFinite(ms) ? ms : Number.NaN, 1, undefined, "ms");
	}
}
