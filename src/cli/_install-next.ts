import { relative } from "pathe";
import { planHooks } from "../discovery/discover.ts";
import { userSettingsPath } from "../discovery/settings.ts";
import { type Agent, agentSpec, type InstallResult } from "../install/index.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { shownPath, wrapHard } from "./_layout.ts";
import { HELP_WIDTH } from "./help.ts";

/*
 * What `install` says happens next: where the project is, whether a hook exists yet (and how to make
 * one), that the first call starts a background server (and how to turn that off), which agents read a
 * project's config only from the folder they were started in, and what to commit.
 */

/**
 * Agents that read a project's hook config only from the folder they were started in (their working
 * directory), never from a folder above it: started in a subfolder, they do not see the entries.
 */
const START_FOLDER_ONLY: ReadonlySet<Agent> = new Set<Agent>(["claude", "gemini", "copilot"]);

/** What happens next, as data (`install --json`'s `next`). */
export interface InstallNext {
	/** The project root the project config was written under (project scope). */
	projectRoot?: string;
	/** The hooks a call from there would find, and how many of them await approval. */
	hooks: number;
	notApproved: number;
	/** Command entries: whether their first call starts the background hook server (`starts`), or the user turned it `off`. */
	server?: "starts" | "off";
	/** The agent reads the project's config only when started in the project root. */
	startInRoot: boolean;
	/** The files to commit so that teammates get the entries (project scope). */
	commit: string[];
}

/**
 * {@link InstallNext} for an install of `result` run for the project at `root`; `portable`: its entries
 * name `xcsh-hooks` on PATH (no `--command`, no `--http`), so the config can be committed.
 */
export async function installNext(result: InstallResult, root: string, portable: boolean): Promise<InstallNext> {
	const plan = await planHooks([], root, { trust: new TrustStore() });
	const hooks = plan.entries.filter((e) => e.status !== "disabled");
	const spec = agentSpec(result.agent);
	const { autostartSettings } = await import("../socket/autostart.ts");
	const project = result.scope === "project";
	return {
		...(project ? { projectRoot: root } : {}),
		hooks: hooks.length,
		notApproved: hooks.filter((e) => e.status === "not-approved" || e.status === "fails-closed").length,
		...(spec.layout === "plugin" ? {} : { server: autostartSettings().enabled ? ("starts" as const) : ("off" as const) }),
		startInRoot: project && START_FOLDER_ONLY.has(result.agent),
		commit: project && portable && spec.layout !== "plugin" ? [result.file] : [],
	};
}

/** {@link InstallNext} as lines for a terminal of 80 columns. */
export function nextLines(next: InstallNext, result: InstallResult, cwd: string): string[] {
	const label = agentSpec(result.agent).label;
	const lines = ["Next:"];
	const add = (text: string) => lines.push(...wrapHard(text, HELP_WIDTH - 4).map((line, i) => (i === 0 ? `  ${line}` : `    ${line}`)));
	if (next.projectRoot !== undefined) {
		add(`The project root is ${next.projectRoot}: a call started anywhere inside it finds the project's hooks there.`);
	}
	if (next.startInRoot)
		add(
			`${label} reads a project's config only from the folder it was started in: start it in ${next.projectRoot ?? cwd}, not in a subfolder.`,
		);
	if (next.hooks === 0)
		add("No hook exists yet: make one with xcsh-hooks init guard --template guard (in .xcsh/hooks/), then xcsh-hooks test.");
	else
		add(
			`${next.hooks} hook${next.hooks === 1 ? "" : "s"} found (xcsh-hooks list)${next.notApproved > 0 ? `; ${next.notApproved} await${next.notApproved === 1 ? "s" : ""} approval: xcsh-hooks trust` : ""}.`,
		);
	if (next.server === "off")
		add(
			`The background hook server is off here ("server": false in ${shownPath(userSettingsPath(), cwd)}, or XCSH_HOOKS_SERVER=off): each call runs on its own.`,
		);
	if (next.server === "starts")
		add(
			`The first hook call starts a background hook server by itself (later calls are answered faster; it stops when idle). Turn it off with "server": false in ${shownPath(userSettingsPath(), cwd)} or XCSH_HOOKS_SERVER=off.`,
		);
	for (const file of next.commit)
		add(
			`Commit ${relative(next.projectRoot ?? cwd, file)}: its entries run xcsh-hooks from PATH, so it works for every teammate with xcsh-hooks on PATH (docs/daily-loop.md).`,
		);
	return lines;
}
