import { prepareBridge } from "./cases/_bridge.ts";
import { fillBunCache } from "./cases/readme-case.ts";
import { ensureInstalled } from "./install.ts";
import { type AgentId, pinOf } from "./pins.ts";
import { runProcess } from "./process.ts";
import { createSandbox } from "./sandbox.ts";

/** What the setup phase hands to the cases phase (as JSON, across the network-namespace boundary). */
export interface SetupState {
	/** Agent → its executable, or why it could not be installed. */
	installs: Partial<Record<AgentId, { bin: string; downloaded: boolean; ms: number } | { error: string }>>;
	/** Agent → the compiled executable whose `bridge <agent>` works, or why the bridge cases are skipped. */
	bridge: Partial<Record<AgentId, { exe: string } | { missing: string }>>;
}

/** Installs the wanted agents (needs the npm registry) and, when `bridge` exists, builds the executable into `work` (or probes `bridge.exe`). */
export async function setup(
	wanted: AgentId[],
	work: string,
	bridge: { enabled: boolean; exe?: string | undefined },
	log: (line: string) => void,
): Promise<SetupState> {
	const state: SetupState = { installs: {}, bridge: {} };
	// In parallel: each is its own folder, and npm's cache is safe to share.
	await Promise.all(
		wanted.map(async (agent) => {
			const pin = pinOf(agent);
			try {
				const got = await ensureInstalled(pin);
				state.installs[agent] = got;
				log(`${pin.pkg}@${pin.version}: ${got.downloaded ? `downloaded in ${(got.ms / 1000).toFixed(1)} s` : "cached"}`);
			} catch (error) {
				state.installs[agent] = { error: String(error) };
				log(`${pin.pkg}@${pin.version}: ${String(error)}`);
			}
		}),
	);
	if (wanted.includes("claude")) await fillBunCache(log);
	if (!bridge.enabled) return state;
	const sandbox = createSandbox("probe");
	try {
		const built = await prepareBridge(work, sandbox.env(), bridge.exe);
		for (const agent of wanted) {
			if ("missing" in built) {
				state.bridge[agent] = built;
				continue;
			}
			// `bridge <agent>` may exist for some agents only: ask the executable about each one.
			const probe = await runProcess([built.exe, "bridge", agent], {
				cwd: sandbox.proj,
				env: sandbox.env(),
				timeoutMs: 30_000,
				stdin: "{}",
			});
			const said = `${probe.stdout}\n${probe.stderr}`;
			const unknown = new RegExp(
				`(unknown|unsupported|not supported)[^\\n]*${agent}|${agent}[^\\n]*(unknown|unsupported|not supported)`,
				"i",
			);
			state.bridge[agent] = unknown.test(said)
				? { missing: `\`xcsh-hooks bridge ${agent}\` is not supported yet: ${said.trim().split("\n")[0]}` }
				: built;
		}
		log("exe" in built ? `bridge executable: ${built.exe}` : `bridge cases will be skipped: ${built.missing}`);
	} finally {
		const { stopped, left } = await sandbox.dispose(false);
		if (left.length > 0) log(`the probe's hook server is still running: ${left.join("; ")}`);
		else if (stopped.length > 0) log(`stopped the hook server the probe's bridge call started (pid ${stopped.join(", ")})`);
	}
	return state;
}
