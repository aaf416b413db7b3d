import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, HookCommands } from "../agents/types.ts";
import type { Checks } from "../checks.ts";
import { startModelServer } from "../model/server.ts";
import { FINAL_TEXT } from "../model/types.ts";
import { createSandbox, type Sandbox } from "../sandbox.ts";
import { checkStandard, type Markers, type Outcome, projectFiles, standardSteps } from "../scenario.ts";
import type { CaseContext } from "./types.ts";
import { runProcess } from "../process.ts";

const PROMPT = "clean the data folder, run a harmless command and show me deploy.conf";

/** What a case sets up before the agent runs. */
export interface DriveSetup {
	/** The hook commands; given the sandbox so they can point into it. Absent: `prepare` writes the agent's config itself. */
	hooks?(sandbox: Sandbox): HookCommands;
	/** Extra preparation after the files are written (e.g. approving hooks); a failed check stops the case. */
	prepare?(sandbox: Sandbox, checks: Checks): Promise<boolean>;
	/** Extra files (relative to the sandbox root). */
	files?: Record<string, string>;
	/** Start the agent in this folder of the project (relative to `proj/`, created) instead of `proj/` itself. */
	startIn?: string;
	/** Which standard assertions apply; the rest are checked by `after`. */
	expect: Outcome["expect"];
	markers: Markers;
	/** What runs the agent (see {@link AgentDriver.run}'s `prefix`), given the sandbox. */
	prefix?(sandbox: Sandbox): string[];
	/** Further checks on the outcome. */
	after?(checks: Checks, outcome: Outcome): void;
	/**
	 * This executable's `serve --status --json` under the sandbox HOME must report calls served: the
	 * first bridge call started the hook server (auto-start, on as users get it) and it served later ones.
	 */
	servedBy?: string;
}

/** `serve --status --json` in the sandbox: a server runs and has served calls. */
async function checkServed(checks: Checks, exe: string, sandbox: Sandbox): Promise<void> {
	const run = await runProcess([exe, "serve", "--status", "--json"], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
	let status: { running?: boolean; served?: number; pid?: number } = {};
	try {
		status = JSON.parse(run.stdout) as typeof status;
	} catch {}
	checks.expect(
		"auto-start: the hook server the first bridge call started served later calls (`serve --status`: calls served > 0)",
		status.running === true && (status.served ?? 0) > 0,
		`exit ${run.code}: ${run.stdout.trim()} ${run.stderr.trim()}`,
	);
}

/** One agent run through the standard script in a fresh sandbox, with its logs kept when anything failed. */
export async function drive(driver: AgentDriver, ctx: CaseContext, checks: Checks, label: string, setup: DriveSetup): Promise<void> {
	const sandbox = createSandbox(`${driver.id}-${label}`);
	const server = startModelServer(driver.api, standardSteps(sandbox));
	try {
		sandbox.write({ ...projectFiles(), ...setup.files });
		if (setup.startIn) {
			sandbox.cwd = join(sandbox.proj, setup.startIn);
			mkdirSync(sandbox.cwd, { recursive: true });
		}
		if (setup.hooks) driver.configure(sandbox, setup.hooks(sandbox));
		if (setup.prepare && !(await setup.prepare(sandbox, checks))) return;
		const run = await driver.run(ctx.bin, sandbox, server.url, PROMPT, ctx.timeoutMs, setup.prefix?.(sandbox));
		await Bun.write(join(sandbox.logs, "requests.json"), JSON.stringify(server.requests, null, 1));
		await Bun.write(join(sandbox.logs, "agent.out"), `${run.stdout}\n--- stderr\n${run.stderr}`);
		ctx.log(
			`${driver.id} exited ${run.code}${run.timedOut ? " (killed on timeout)" : ""} in ${(run.ms / 1000).toFixed(1)} s; ${server.requests.length} requests, ${server.main().length} main turns`,
		);
		if (setup.servedBy) await checkServed(checks, setup.servedBy, sandbox);
		const outcome: Outcome = { run, server, api: driver.api, sandbox, markers: setup.markers, expect: setup.expect };
		checkStandard(checks, outcome);
		if (setup.expect.deny) driver.guardChecks?.(checks, driver.api.toolResults(server.main().at(-1)?.body)[0]);
		setup.after?.(checks, outcome);
		if (driver.finalText && !run.timedOut) {
			const text = driver.finalText(run);
			checks.expect("the agent printed the model's final text", text === FINAL_TEXT, `got ${JSON.stringify(text)}`);
		}
	} finally {
		server.stop();
		await sandbox.stopServers(checks);
		const keep = ctx.keep || !checks.ok;
		await sandbox.dispose(keep);
		if (keep) ctx.log(`kept ${sandbox.root}`);
	}
}
