import { EXIT_OK, EXIT_USAGE, globalArgs, hookPaths, printJson, projectDir, writeErr, writeOut, defineCommand } from "./_shared.ts";
import { createHost, describeSkips, reportedSkips } from "../host/host.ts";
import { shownPath } from "./_layout.ts";

export const checkCommand = defineCommand({
	meta: {
		name: "check",
		description: "Load every hook and report what it registers",
		details: "Load every hook and report its events, commands and renderers; exit 1 on any load error or hook not approved",
	},
	args: { ...globalArgs },
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const host = await createHost({ cwd, hookPaths: hookPaths(args), discovery: args.discovery, interactive: false });
		const hooks = host.hooks.map((hook) => ({
			path: hook.resolvedPath,
			source: hook.source ?? null,
			events: [...hook.handlers.entries()].map(([event, handlers]) => ({ event, handlers: handlers.length })),
			commands: [...hook.commands.values()].map((c) => ({ name: c.name, description: c.description ?? null })),
			renderers: [...hook.messageRenderers.keys()],
		}));
		// A project hook not approved is not checked: "all good" would be a lie.
		const ok = host.loadErrors.length === 0 && host.skipped.length === 0;
		if (args.json) {
			await printJson({ ok, hooks, loadErrors: host.loadErrors, skipped: reportedSkips(host.skipped), warnings: host.warnings });
			return ok ? EXIT_OK : EXIT_USAGE;
		}
		const show = (path: string) => shownPath(path, cwd); // as `list` shows it: relative, `~/…`, else absolute
		const lines: string[] = [];
		for (const hook of hooks) {
			const from = hook.source ? ` (${hook.source.provider ?? hook.source.origin}, ${hook.source.level})` : "";
			lines.push(`✓ ${show(hook.path)}${from}`);
			const events = hook.events.map((e) => (e.handlers > 1 ? `${e.event} ×${e.handlers}` : e.event));
			if (events.length) lines.push(`    events:    ${events.join(", ")}`);
			if (hook.commands.length) lines.push(`    commands:  ${hook.commands.map((c) => `/${c.name}`).join(", ")}`);
			if (hook.renderers.length) lines.push(`    renderers: ${hook.renderers.join(", ")}`);
			if (!events.length && !hook.commands.length && !hook.renderers.length) lines.push("    (registers nothing)");
		}
		for (const error of host.loadErrors) lines.push(`✗ ${show(error.path)}\n    ${error.error}`);
		if (hooks.length + host.loadErrors.length + host.skipped.length === 0)
			lines.push("No hooks found. Create one with: xcsh-hooks init my-hook");
		lines.push(
			`${hooks.length} hook${hooks.length === 1 ? "" : "s"} loaded, ${host.loadErrors.length} failed` +
				(host.skipped.length ? `, ${host.skipped.length} not approved` : ""),
		);
		await writeOut(lines.join("\n"));
		for (const line of describeSkips(host)) await writeErr(line);
		return ok ? EXIT_OK : EXIT_USAGE;
	},
});
