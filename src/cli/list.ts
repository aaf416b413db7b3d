import { relative } from "pathe";
import { type PlannedHook, planHooks } from "../discovery/discover.ts";
import { installableAgents, bridgeStatus } from "../install/index.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { EXIT_OK, globalArgs, hookPaths, printJson, projectDir, writeErr, writeOut, defineCommand } from "./_shared.ts";

/** What each status says in the table: exactly what will happen to the hook. */
const STATUS: Record<PlannedHook["status"], string> = {
	run: "runs",
	"not-approved": "not approved (skipped)",
	"fails-closed": "fails closed",
	shadowed: "shadowed",
	disabled: "disabled",
};

export const listCommand = defineCommand({
	meta: {
		name: "list",
		description: "List hooks and what will happen to each: runs, not approved, fails closed, shadowed or disabled",
	},
	args: { ...globalArgs },
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		// The same plan the other commands load from: trust, settings and first-wins all applied.
		const [plan, bridges] = await Promise.all([
			planHooks(hookPaths(args), cwd, { trust: new TrustStore(), discovery: args.discovery }),
			Promise.all(installableAgents().map(async (agent) => ({ agent, ...(await bridgeStatus(agent, { cwd })) }))),
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
			}));
			await printJson({ hooks, skipped: plan.skipped, bridges, warnings: plan.warnings });
			return EXIT_OK;
		}
		const show = (path: string) => (path.startsWith(`${cwd}/`) ? relative(cwd, path) : path);
		const rows = plan.entries.map((e) => [
			e.source.provider ?? e.source.origin,
			e.source.level,
			e.hook?.entry?.event ?? e.hook?.type ?? "-",
			e.hook?.tool ?? "-",
			e.hook?.entry
				? `${show(e.path)}  $ ${e.hook.entry.args ? [e.hook.entry.command, ...e.hook.entry.args].join(" ") : e.hook.entry.command}`
				: show(e.path),
			STATUS[e.status] +
				(e.detail && e.status !== "run" ? `: ${e.status === "shadowed" ? `by ${show(e.detail.slice(3))}` : e.detail}` : ""),
		]);
		const lines = rows.length ? table([["SOURCE", "LEVEL", "TYPE/EVENT", "TOOL/MATCHER", "PATH", "STATUS"], ...rows]) : ["No hooks found."];
		const pending = plan.skipped.filter((s) => s.reason !== "unverifiable");
		if (pending.length) lines.push("", ...pending.map((s) => `approve with: ${s.approve}`));
		const where = (b: { project: boolean; user: boolean }) =>
			b.project && b.user
				? "installed (project and user)"
				: b.project
					? "installed (project)"
					: b.user
						? "installed (user)"
						: "not installed";
		lines.push("", `bridges: ${bridges.map((b) => `${b.agent} ${where(b)}`).join(", ")}`);
		await writeOut(lines.join("\n"));
		for (const warning of [...plan.warnings, ...bridges.flatMap((b) => b.errors)]) await writeErr(`warning: ${warning}`);
		return EXIT_OK;
	},
});

function table(rows: string[][]): string[] {
	const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? "").length))) ?? [];
	return rows.map((row) =>
		row
			.map((cell, col) => cell.padEnd(widths[col] ?? 0))
			.join("  ")
			.trimEnd(),
	);
}
