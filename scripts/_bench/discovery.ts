/** Discovery of 1,000 hook files in a temporary project: absolute time, no budget. */
import { CapabilityRegistry } from "../../src/discovery/capability/registry.ts";
import { registerHookDiscovery } from "../../src/discovery/register.ts";
import { tempDir, writeFiles } from "./fixtures.ts";
import { median, percentile } from "./micro.ts";
import { formatNs, type Report } from "./report.ts";

const FILES = 1_000;

export async function benchDiscovery(report: Report): Promise<void> {
	await report.section("discovery", `loadCapability("hooks") over ${FILES.toLocaleString("en")} hook files`);
	const cwd = tempDir("discovery");
	const home = tempDir("home");
	// Spread over the places users put hooks: native pre/post scripts, native modules, claude and codex folders.
	const files: Record<string, string> = {};
	for (let i = 0; i < FILES; i++) {
		const n = String(i).padStart(4, "0");
		const place = i % 4;
		if (place === 0) files[`.xcsh/hooks/pre/tool-${n}.sh`] = "#!/bin/sh\nexit 0\n";
		else if (place === 1) files[`.xcsh/hooks/guard-${n}.ts`] = "export default () => {};\n";
		else if (place === 2) files[`.claude/hooks/post/tool-${n}.sh`] = "#!/bin/sh\nexit 0\n";
		else files[`.codex/hooks/pre-tool-${n}.ts`] = "export default () => {};\n";
	}
	writeFiles(cwd, files);
	const registry = registerHookDiscovery(new CapabilityRegistry());
	const times: number[] = [];
	let found = 0;
	for (let run = 0; run < 25; run++) {
		const start = Bun.nanoseconds();
		const result = await registry.loadCapability("hooks", { cwd, home });
		const elapsed = Bun.nanoseconds() - start;
		found = result.items.length;
		if (run >= 5) times.push(elapsed);
	}
	await report.line(`discover ${found} hooks`, `${formatNs(median(times))} median, ${formatNs(percentile(times, 90))} p90`);
}
