import { CASES } from "./cases/index.ts";
import { Checks } from "./checks.ts";
import { putOnPath } from "./sandbox.ts";
import type { AgentId } from "./pins.ts";
import type { SetupState } from "./setup.ts";
import type { CaseReport } from "./summary.ts";

/** Options of {@link runCases}. */
export interface RunCasesOptions {
	wanted: AgentId[];
	state: SetupState;
	timeoutMs: number;
	keep: boolean;
	/** Only the cases whose name contains this text (`--case`); all when absent. */
	only?: string | undefined;
	log(line: string): void;
}

/** Runs every case of the wanted agents, in order, and resolves their reports (a throwing case is a failed check). */
export async function runCases(options: RunCasesOptions): Promise<CaseReport[]> {
	const reports: CaseReport[] = [];
	// Every agent finds the executable under test as `xcsh-hooks` on its PATH (project entries name it there).
	const built = Object.values(options.state.bridge).find((b) => b !== undefined && "exe" in b);
	const removeFromPath = built && "exe" in built ? putOnPath(built.exe) : () => {};
	try {
		return await runEach(options, reports);
	} finally {
		removeFromPath();
	}
}

async function runEach(options: RunCasesOptions, reports: CaseReport[]): Promise<CaseReport[]> {
	for (const c of CASES.filter((c) => options.wanted.includes(c.agent) && (!options.only || c.name.includes(options.only)))) {
		const checks = new Checks();
		const t0 = performance.now();
		const installed = options.state.installs[c.agent];
		const bridge = options.state.bridge[c.agent] ?? { missing: "the bridge was not prepared" };
		console.error(`${c.agent}: ${c.name}`);
		if (!installed || "error" in installed)
			checks.expect("agent CLI installed", false, installed && "error" in installed ? installed.error : "not installed");
		else if (c.needsBridge && "missing" in bridge) checks.skip("bridge-based checks", bridge.missing);
		else {
			try {
				await c.run({ bin: installed.bin, timeoutMs: options.timeoutMs, keep: options.keep, bridge, log: options.log }, checks);
			} catch (error) {
				checks.expect("case ran to the end", false, error instanceof Error ? (error.stack ?? error.message) : String(error));
			}
		}
		reports.push({ agent: c.agent, name: c.name, checks: checks.list, ms: performance.now() - t0 });
	}
	return reports;
}
