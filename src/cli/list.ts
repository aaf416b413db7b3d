import { relative } from "pathe";
import type { Hook } from "../capability/hooks.ts";
import type { CapabilityItem } from "../capability/registry.ts";
import { registerHookDiscovery } from "../discovery/register.ts";
import { loadSettings } from "../discovery/settings.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { EXIT_OK, projectArgs, printJson, projectDir, writeErr, writeOut, defineCommand } from "./_shared.ts";

type Listed = CapabilityItem<Hook> & { trust?: "approved" | "unknown" | "changed" };

export const listCommand = defineCommand({
	meta: { name: "list", description: "List discovered hooks: provider, level, type, tool, path, shadowed/disabled, trust" },
	args: { ...projectArgs },
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const { settings, warnings: settingsWarnings } = await loadSettings(cwd);
		const found = await registerHookDiscovery().loadCapability<Hook>("hooks", {
			cwd,
			excludeProviders: settings.disabledProviders,
			disabledExtensions: settings.disabledExtensions,
			includeDisabled: true,
			includeInvalid: true,
		});
		const store = new TrustStore();
		const hooks: Listed[] = await Promise.all(
			found.all.map(async (hook) => {
				if (hook.level !== "project") return hook;
				const check = await store.check(hook.path).catch(() => undefined);
				return { ...hook, trust: check?.trusted ? "approved" : (check?.reason ?? "unknown") };
			}),
		);
		const warnings = [...settingsWarnings, ...found.warnings];
		if (args.json) {
			await printJson({ hooks, settingsHooks: settings.hooks ?? [], warnings });
			return EXIT_OK;
		}
		const rows = hooks.map((h) => {
			const flags = [h._shadowed && "shadowed", h._disabled && "disabled", h._invalid && `invalid: ${h._invalid}`, h.trust && h.trust !== "approved" && `untrusted (${h.trust})`]
				.filter(Boolean)
				.join(", ");
			const path = h.path.startsWith(cwd) ? relative(cwd, h.path) : h.path;
			return [h._source.provider, h.level, h.type, h.tool, path, flags];
		});
		const lines = rows.length ? table([["PROVIDER", "LEVEL", "TYPE", "TOOL", "PATH", ""], ...rows]) : ["No hooks discovered."];
		for (const path of settings.hooks ?? []) lines.push(`settings hook: ${path}`);
		await writeOut(lines.join("\n"));
		for (const warning of warnings) await writeErr(`warning: ${warning}`);
		return EXIT_OK;
	},
});

function table(rows: string[][]): string[] {
	const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? "").length))) ?? [];
	return rows.map((row) => row.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join("  ").trimEnd());
}
