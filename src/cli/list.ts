import { type PlannedHook, planHooks } from "../discovery/discover.ts";
import { findProject } from "../discovery/project.ts";
import { installableAgents, bridgeStatus } from "../install/index.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { reportedSkips } from "../host/host.ts";
import { hanging, narrowTable, shownPath } from "./_layout.ts";
import { EXIT_OK, globalArgs, hookPaths, printJson, projectDir, writeOut, defineCommand } from "./_shared.ts";
import { warn } from "./_say.ts";

/** What each status says in the table: exactly what will happen to the hook. */
const STATUS: Record<PlannedHook["status"], string> = {
	run: "runs",
	"not-approved": "not approved",
	"fails-closed": "fails closed",
	shadowed: "shadowed",
	disabled: "disabled",
};

export const listCommand = defineCommand({
	meta: {
		name: "list",
		description: "List the hooks and what will happen to each",
		details: "List hooks and what will happen to each: runs, not approved, fails closed, shadowed or disabled",
	},
	args: { ...globalArgs },
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		// The project of this folder, as every call finds it: the bridges installed at its root are the ones shown.
		const project = findProject(cwd);
		// The same plan the other commands load from: trust, settings and first-wins all applied.
		const [plan, bridges] = await Promise.all([
			planHooks(hookPaths(args), cwd, { trust: new TrustStore(), discovery: args.discovery }),
			Promise.all(installableAgents().map(async (agent) => ({ agent, ...(await bridgeStatus(agent, { cwd: project.root })) }))),
		]);
		if (args.json) {
			const hooks = plan.entries.map((e) => ({
				path: e.path,
				origin: e.source.origin,
				level: e.source.level,
				provider: e.source.provider ?? null,
				type: e.hook?.type ?? null,
				tool: e.hook?.tool ?? null,
				// Agent hook entries (Claude Code, Codex, Gemini CLI, Cursor configs): which agent, event, matcher and command.
				...(e.hook?.entry
					? { agent: e.hook.entry.agent, event: e.hook.entry.event, matcher: e.hook.entry.matcher ?? null, command: e.hook.entry.command }
					: {}),
				status: e.status,
				detail: e.detail ?? null,
				// A project hook that runs: approved here ("local") or by a signed team list ("team", with the list).
				...(e.approvedBy ? { approvedBy: e.approvedBy, ...(e.teamList ? { teamList: e.teamList } : {}) } : {}),
			}));
			const { root, layers } = project;
			await printJson({ project: { root, layers }, hooks, skipped: reportedSkips(plan.skipped), bridges, warnings: plan.warnings });
			return EXIT_OK;
		}
		const show = (path: string) => shownPath(path, cwd);
		const rows = plan.entries.map((e) => {
			const more: string[] = [];
			const entry = e.hook?.entry;
			let what = show(e.path);
			if (entry) {
				const command = entry.args ? [entry.command, ...entry.args].join(" ") : entry.command;
				more.push(`${entry.agent} ${entry.event}${entry.matcher ? ` on ${entry.matcher}` : ""}`, `$ ${command}`);
			} else if (e.hook && e.hook.tool !== "*") what += ` (${e.hook.type === "pre" ? "before" : "after"} ${e.hook.tool})`;
			if (e.source.provider && e.source.provider !== "native" && !entry) more.push(`from ${e.source.provider}`);
			if (e.detail && e.status !== "run") more.push(e.status === "shadowed" ? `by ${show(e.detail.slice(3))}` : e.detail);
			if (e.teamList) more.push(`approved by the team list ${show(e.teamList)}`);
			return { cells: [STATUS[e.status], e.source.level, what], more };
		});
		const lines = rows.length ? narrowTable([{ cells: ["STATUS", "LEVEL", "HOOK"] }, ...rows]) : ["No hooks found."];
		const pending = plan.skipped.filter((s) => s.reason !== "unverifiable");
		if (pending.length) lines.push("", ...pending.flatMap((s) => hanging(`Approve with: xcsh-hooks trust approve ${show(s.path)}`, 4)));
		const where = (b: { agent: string; project: boolean; user: boolean }) =>
			b.project && b.user ? `${b.agent} (project, user)` : b.project ? `${b.agent} (project)` : `${b.agent} (user)`;
		const installed = bridges.filter((b) => b.project || b.user);
		// Said when it is not simply this folder: the project was found above it, or has outer layers.
		if (project.root !== cwd || project.layers.length > 1) {
			const outer = project.layers.slice(1).map(show);
			lines.push("", ...hanging(`Project: ${show(project.root)}${outer.length ? ` (and the outer ${outer.join(", ")})` : ""}`));
		}
		lines.push(
			"",
			...hanging(`Bridges installed: ${installed.length ? installed.map(where).join(", ") : "none (xcsh-hooks install <agent>)"}`),
		);
		await writeOut(lines.join("\n"));
		for (const warning of [...plan.warnings, ...bridges.flatMap((b) => b.errors)]) await warn(warning);
		return EXIT_OK;
	},
});
