import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../paths.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { Markers } from "../scenario.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "xcsh");
const HOOKS = ["guard.ts", "redact.ts", "context.ts"];

/** The typed suite hooks, placed in the project's `.xcsh/hooks/`. */
export function bridgeHookFiles(): Record<string, string> {
	return Object.fromEntries(HOOKS.map((name) => [`proj/.xcsh/hooks/${name}`, readFileSync(join(FIXTURES, name), "utf8")]));
}

/** The markers the typed suite hooks put into the conversation. */
export function bridgeMarkers(): Markers {
	return { deny: "XCSH-GUARD: rm -rf is not allowed", context: "XCSH-CONTEXT: the deploy window is closed" };
}

/** Approves the suite hooks with `<exe> trust approve <path>` in the sandbox's private HOME. */
export async function approveHooks(exe: string, sandbox: Sandbox): Promise<{ ok: boolean; detail: string }> {
	const paths = HOOKS.map((name) => join(sandbox.proj, ".xcsh", "hooks", name));
	const res = await runProcess([exe, "trust", "approve", ...paths], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
	return { ok: res.code === 0 && !res.timedOut, detail: `exit ${res.code}: ${res.stderr.trim()} ${res.stdout.trim()}` };
}

/**
 * Whether `xcsh-hooks bridge` exists yet (asked of `bun src/cli.ts`, so nothing is built for nothing);
 * when it does, compiles the executable into `dir` with `scripts/build.ts`. With `prebuilt`, that
 * executable is probed and used instead.
 */
export async function prepareBridge(
	dir: string,
	env: Record<string, string>,
	prebuilt?: string,
): Promise<{ exe: string } | { missing: string }> {
	const cli = prebuilt ? [prebuilt] : ["bun", join(REPO, "src", "cli.ts")];
	const probe = await runProcess([...cli, "bridge", "--help"], { cwd: dir, env, timeoutMs: 30_000, stdin: "" });
	const said = `${probe.stdout}\n${probe.stderr}`;
	if (/unknown command\W+bridge/i.test(said)) return { missing: "`xcsh-hooks bridge` is not a known command yet (src/cli/bridge.ts)" };
	if (prebuilt) return { exe: prebuilt };
	const exe = join(dir, "xcsh-hooks");
	const build = await runProcess(["bun", join(REPO, "scripts", "build.ts"), "--outfile", exe], { cwd: REPO, env, timeoutMs: 180_000 });
	if (build.code !== 0) return { missing: `scripts/build.ts failed (exit ${build.code}): ${build.stderr.trim().slice(-500)}` };
	return { exe };
}
