import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CACHE, NPM_CACHE } from "./paths.ts";
import type { AgentPin } from "./pins.ts";
import { runProcess } from "./process.ts";

/** Result of {@link ensureInstalled}. */
export interface Installed {
	/** Absolute path of the agent's executable. */
	bin: string;
	/** True when this call downloaded it; false when the cache already had it. */
	downloaded: boolean;
	/** Milliseconds spent (≈0 when cached). */
	ms: number;
}

/** Folder of one pinned package in the cache: `.cache/agents/<pkg>@<version>/`. */
export function installDir(pin: AgentPin): string {
	return join(CACHE, `${pin.pkg.replace("/", "+")}@${pin.version}`);
}

/** The executable of a pinned package in the cache (whether installed or not). */
export function runtimeBin(pin: AgentPin): string {
	return join(installDir(pin), "node_modules", pin.path ?? join(".bin", pin.bin));
}

/**
 * Installs `pin` with npm into its cache folder unless a finished install is there; the install
 * goes to a scratch folder renamed into place at the end, so an interrupted run never leaves a half
 * install that later runs would trust.
 */
export async function ensureInstalled(pin: AgentPin, timeoutMs = 600_000): Promise<Installed> {
	const dir = installDir(pin);
	const inside = pin.path ?? join(".bin", pin.bin);
	const bin = join(dir, "node_modules", inside);
	const done = join(dir, ".installed");
	if (existsSync(done) && existsSync(bin) && (!pin.runtime || existsSync(runtimeBin(pin.runtime))))
		return { bin, downloaded: false, ms: 0 };
	const started = performance.now();
	const runtime = pin.runtime ? await ensureInstalled(pin.runtime, timeoutMs) : undefined;
	const scratch = `${dir}.partial-${process.pid}`;
	rmSync(scratch, { recursive: true, force: true });
	mkdirSync(scratch, { recursive: true });
	mkdirSync(NPM_CACHE, { recursive: true });
	writeFileSync(join(scratch, "package.json"), `${JSON.stringify({ name: "agent-cache", private: true })}\n`);
	const spec = `${pin.pkg}@${pin.version}`;
	const res = await runProcess(["npm", "install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", spec], {
		cwd: scratch,
		env: {
			...process.env,
			...(runtime ? { PATH: `${dirname(runtime.bin)}:${process.env.PATH ?? ""}` } : {}),
			npm_config_cache: NPM_CACHE,
			npm_config_update_notifier: "false",
		},
		timeoutMs,
	});
	if (res.timedOut || res.code !== 0) {
		rmSync(scratch, { recursive: true, force: true });
		throw new Error(`npm install ${spec} ${res.timedOut ? "timed out" : `exited ${res.code}`}: ${res.stderr.slice(-2000)}`);
	}
	if (!existsSync(join(scratch, "node_modules", inside))) throw new Error(`npm install ${spec}: no ${inside} in node_modules`);
	writeFileSync(join(scratch, ".installed"), `${spec}\n${new Date().toISOString()}\n`);
	rmSync(dir, { recursive: true, force: true });
	renameSync(scratch, dir);
	return { bin, downloaded: true, ms: performance.now() - started };
}
