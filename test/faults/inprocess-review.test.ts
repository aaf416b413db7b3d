/**
 * Holes found reviewing the in-process plugin runtime (OpenCode, Kilo Code): a hook change that lands
 * while a reload runs must still be picked up (a revoked or new guard must not be missed for the life
 * of the agent), and a rewrite applied in place must not turn an own `__proto__` key into the
 * prototype of the object the agent's tool runs with.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runArgv } from "./_cli.ts";
import { tempDir, writeFiles } from "./_fixtures.ts";

const DRIVER = join(import.meta.dir, "_inprocess-driver.ts");

async function drive(scenario: string, home: string, proj: string) {
	const run = await runArgv([process.execPath, DRIVER, scenario], { cwd: proj, home, timeoutMs: 60_000 });
	expect(run.stderr).not.toContain("error:");
	expect(run.code).toBe(0);
	return JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as Record<string, any>;
}

describe("in-process runtime under review", () => {
	test("a hook added while a reload is loading is loaded too (the change is not dropped with the old watcher)", async () => {
		const home = tempDir("xcsh-rvp-home-");
		const proj = tempDir("xcsh-rvp-proj-");
		const late = `export default function (pi) { pi.on("tool_call", () => ({ block: true, reason: "LATE-GUARD" })); }\n`;
		writeFiles(home, {
			// User-level hooks run without approval. Re-imported while "armed", this one writes the late guard.
			".xcsh/agent/hooks/arm.ts": `import { existsSync, writeFileSync } from "node:fs";
const home = process.env.HOME;
if (existsSync(home + "/armed") && !existsSync(home + "/.xcsh/agent/hooks/late.ts"))
	writeFileSync(home + "/.xcsh/agent/hooks/late.ts", ${JSON.stringify(late)});
export default function () {}
`,
		});
		const out = await drive("reload-race", home, proj);
		expect(out.hookWritten).toBe(true);
		expect(out.rm).toEqual({ block: true, reason: "LATE-GUARD" });
	}, 90_000);

	test("a rewrite applied to output.args keeps its prototype: an own __proto__ key stays a key", async () => {
		const home = tempDir("xcsh-rvp-home-");
		const proj = tempDir("xcsh-rvp-proj-");
		writeFiles(home, {
			".xcsh/agent/hooks/tag.ts": `export default function (pi) {
	pi.on("tool_call", (event) => event.toolName === "webfetch" ? { input: { ...event.input, tag: "T" } } : undefined);
}
`,
		});
		const out = await drive("proto-rewrite", home, proj);
		expect(out.tag).toBe("T");
		expect(out.protoKept).toBe(true);
		expect(out.inheritedFormat).toBeNull();
		expect(out.ownProto).toBe(true);
	}, 90_000);
});
