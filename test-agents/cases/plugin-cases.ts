import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import type { Checks } from "../checks.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import { SECRET } from "../scenario.ts";
import { approveHooks, bridgeHookFiles, bridgeMarkers } from "./_bridge.ts";
import { readLines } from "./_jsonl.ts";
import { drive } from "./drive.ts";
import type { AgentCase } from "./types.ts";

/*
 * Agents that load our plugin in-process (OpenCode, Kilo Code): `xcsh-hooks install <agent>` writes
 * the plugin file and the runtime it imports; the typed hooks in `.xcsh/hooks/` run inside the agent.
 */

/** Runs `exe args…` in the sandbox's project with its private HOME. */
const cli = (exe: string, sandbox: Sandbox, args: string[]) =>
	runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });

async function install(exe: string, driver: AgentDriver, sandbox: Sandbox, checks: Checks): Promise<boolean> {
	const res = await cli(exe, sandbox, ["install", driver.id]);
	return checks.expect(`\`xcsh-hooks install ${driver.id}\` wrote the plugin`, res.code === 0, `exit ${res.code}: ${res.stderr.trim()}`);
}

/** Every file under `dir` (bounded), for the stored-session check. */
function filesUnder(dir: string, out: string[] = [], depth = 0): string[] {
	if (depth > 8 || out.length > 5000) return out;
	for (const name of existsSync(dir) ? readdirSync(dir) : []) {
		const path = join(dir, name);
		const info = statSync(path, { throwIfNoEntry: false });
		if (info?.isDirectory()) filesUnder(path, out, depth + 1);
		else if (info?.isFile() && info.size < 20_000_000) out.push(path);
	}
	return out;
}

/** Package files: what an install of dependencies leaves (by us or by the agent's background install). */
const PACKAGE_FILES = ["node_modules", "package.json", "package-lock.json", "bun.lock", "bun.lockb"];

/** Every path below `dir` (bounded) whose name is one of `names`. */
function named(dir: string, names: string[], depth = 0): string[] {
	if (depth > 6 || !existsSync(dir) || !statSync(dir).isDirectory()) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return names.includes(name) ? [path] : named(path, names, depth + 1);
	});
}

/**
 * Right after `install <agent>`: the project's plugin folder holds our one file and nothing else, no
 * package file is next to it or in the user's config folder, and the runtime the executable wrote under
 * `~/.xcsh/agent/` is plain files with no dependency install: nothing but the executable was needed.
 */
export function checkNothingInstalled(driver: AgentDriver, sandbox: Sandbox, checks: Checks): boolean {
	const [project, ...user] = (driver.pluginDirs ?? []).map((dir) => join(sandbox.root, dir));
	if (!project) return checks.expect(`${driver.id} names its plugin folders`, false);
	const files = existsSync(project) ? readdirSync(project) : [];
	const one = checks.expect(
		`install wrote exactly one file into ${driver.id}'s plugin folder`,
		files.length === 1 && /\.(ts|js)$/.test(files[0] ?? ""),
		JSON.stringify(files),
	);
	const configDirs = [project, ...user].map((dir) => join(dir, ".."));
	const packages = [...configDirs, join(sandbox.home, ".xcsh")].flatMap((dir) => named(dir, PACKAGE_FILES));
	const none = checks.expect(
		"install wrote no package files (node_modules, package.json, lockfiles)",
		packages.length === 0,
		packages.join(", "),
	);
	return one && none;
}

/** After the run: the agent's config folders still have no `node_modules` (its own background install found nothing offline). */
export function checkNoDependencies(driver: AgentDriver, sandbox: Sandbox, checks: Checks): void {
	const dirs = (driver.pluginDirs ?? []).map((dir) => join(sandbox.root, dir, ".."));
	const found = dirs.flatMap((dir) => named(dir, ["node_modules"]));
	checks.expect(`no node_modules in ${driver.id}'s config folders after the run`, found.length === 0, found.join(", "));
}

/** The typed suite hooks (guard, redact, context) approved, plus `install <agent>`. */
export function pluginSuiteCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks install ${driver.id}: the typed suite hooks run in-process (trusted)`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no executable");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "plugin", {
				files: bridgeHookFiles(),
				async prepare(sandbox, c) {
					const approved = await approveHooks(exe, sandbox);
					if (!c.expect("`xcsh-hooks trust approve` accepted the project hooks", approved.ok, approved.detail)) return false;
					return install(exe, driver, sandbox, c);
				},
				expect: { deny: true, harmless: true, redact: true, context: true },
				markers: bridgeMarkers(),
				after(c, { sandbox }) {
					// The agent's own store (sessions, tool parts with their metadata) under XDG_DATA_HOME.
					const stored = filesUnder(join(sandbox.home, ".local", "share")).filter((file) => readFileSync(file).includes(SECRET));
					c.expect("redaction: the secret is in no file of the agent's stored session", stored.length === 0, stored.slice(0, 3).join(", "));
					// Every call on record, as a bridge's: the blocked one a deny of bash, with the agent's session id.
					const decisions = readLines<{ agent?: string; event?: string; tool?: string; decision?: string; session?: string }>(
						join(sandbox.home, ".xcsh", "agent", "decisions.jsonl"),
					);
					c.expect(
						"the decision log has the blocked call: a deny of bash at tool.execute.before, with the session, and an allow",
						decisions.some(
							(d) =>
								d.agent === driver.id && d.event === "tool.execute.before" && d.tool === "bash" && d.decision === "deny" && !!d.session,
						) && decisions.some((d) => d.agent === driver.id && d.decision === "allow"),
						JSON.stringify(decisions).slice(0, 600),
					);
				},
			});
		},
	};
}

/** A hook that fails to load: every tool call is blocked, with the reason naming the hook. */
export function pluginLoadErrorCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks install ${driver.id}: a hook that fails to load blocks every tool call`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no executable");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "plugin-broken", {
				files: { "proj/.xcsh/hooks/broken.ts": 'throw new Error("BROKEN-AT-LOAD");\nexport default function () {}\n' },
				async prepare(sandbox, c) {
					const approved = await cli(exe, sandbox, ["trust", "approve", join(sandbox.proj, ".xcsh", "hooks", "broken.ts")]);
					if (!c.expect("`xcsh-hooks trust approve` accepted the broken hook", approved.code === 0, approved.stderr)) return false;
					return install(exe, driver, sandbox, c);
				},
				expect: { deny: true, harmless: false, redact: false, context: false },
				markers: { deny: "broken.ts: ", context: "" },
				after(c, { sandbox, server, api }) {
					c.expect(
						"load error: the harmless call was blocked too (harmless.txt not created)",
						!existsSync(join(sandbox.proj, "harmless.txt")),
					);
					const results = api.toolResults(server.main().at(-1)?.body);
					c.expect(
						"load error: the model got the load error as the reason of the harmless call",
						!!results[1]?.text.includes("BROKEN-AT-LOAD"),
						JSON.stringify(results[1]),
					);
				},
			});
		},
	};
}

/**
 * `install <agent> --user`: the plugin in the user's config folder (`~/.config/<agent>/plugin/`) is loaded
 * too and guards a project whose only xcsh file is the approved `init guard` hook.
 */
export function pluginUserInstallCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks init guard + xcsh-hooks install ${driver.id} --user: the user plugin folder is loaded`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no executable");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "plugin-user", {
				async prepare(sandbox, c) {
					const init = await cli(exe, sandbox, ["init", "guard"]);
					if (!c.expect("`xcsh-hooks init guard` scaffolded and approved the guard", init.code === 0, init.stderr.trim())) return false;
					const res = await cli(exe, sandbox, ["install", driver.id, "--user"]);
					if (!c.expect(`\`xcsh-hooks install ${driver.id} --user\` wrote the plugin`, res.code === 0, res.stderr.trim())) return false;
					const user = driver.pluginDirs?.[1];
					const files = user && existsSync(join(sandbox.root, user)) ? readdirSync(join(sandbox.root, user)) : [];
					return c.expect(`the plugin is in ${user}`, files.length === 1, JSON.stringify(files));
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: {
					deny: "guard blocked this command: a recursive delete (data lies outside temp dirs) [filesystem/recursive-delete]",
					context: "",
				},
			});
		},
	};
}
