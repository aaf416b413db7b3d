/**
 * Adding an agent is one folder and one registration: Acme (test/agents/acme/, an agent that exists
 * only here) is registered through the registry and then driven through the generic machinery that
 * names no agent — the bridge flow, `install`/`uninstall` and the provider of its own command hooks.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { registerAgent } from "../../src/agents/index.ts";
import { ownConfigProvider } from "../../src/agent-call/own-config.ts";
import { bridgeNames, loadBridge } from "../../src/agent-call/index.ts";
import { runBridge } from "../../src/agent-call/run.ts";
import { CapabilityRegistry } from "../../src/discovery/capability/registry.ts";
import { discoverAndLoadHooks } from "../../src/discovery/discover.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { INSTALL_MARKER, installBridge, isAgent, uninstallBridge } from "../../src/install/index.ts";
import { tempDir, writeFiles } from "../_helpers.ts";
import { acme } from "./acme/index.ts";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";

let unregister: () => void = () => {};
beforeAll(() => {
	unregister = registerAgent(acme);
});
afterAll(() => unregister());

const GUARD = `export default (pi) => {
	pi.on("tool_call", (event) => {
		const command = String(event.input.command ?? "");
		if (event.toolName === "bash" && command.includes("rm -rf")) return { block: true, reason: "no rm -rf here" };
		if (event.toolName === "bash" && command === "make") return { input: { command: "make --dry-run" } };
	});
};
`;

async function bridge(payload: unknown, dir: string): Promise<{ stdout: string; stderr: string[] }> {
	const agent = await loadBridge("acme");
	if (!agent) throw new Error("acme is not registered");
	return runBridge(agent, {
		stdin: new TextEncoder().encode(JSON.stringify(payload)),
		hookPaths: [join(dir, "guard.js")],
		discovery: false,
		env: {},
		workingDir: dir,
	});
}

const call = (cmd: string, dir: string) => ({ event: "before_tool", session: "s1", project: dir, tool: { name: "sh", args: { cmd } } });

test("the registry lists a registered agent for bridge and install, once", () => {
	expect(bridgeNames()).toContain("acme");
	expect(isAgent("acme")).toBe(true);
	const again = () => registerAgent(acme);
	expect(again).toThrow('agent "acme" is already registered');
});

test("bridge acme: the generic flow maps its payload, runs our hooks and answers in its protocol", async () => {
	const dir = tempDir();
	writeFiles(dir, { "guard.js": GUARD });
	const denied = await bridge(call("rm -rf build", dir), dir);
	expect(JSON.parse(denied.stdout)).toEqual({ verdict: "deny", why: expect.stringContaining("no rm -rf here") });
	const rewritten = await bridge(call("make", dir), dir);
	expect(JSON.parse(rewritten.stdout)).toEqual({ verdict: "allow", args: { cmd: "make --dry-run" } });
	expect((await bridge(call("ls", dir), dir)).stdout).toBe("");
	// Fail closed in Acme's terms: a payload without its tool is the deny, not an allow.
	const invalid = await bridge({ event: "before_tool", session: "s1" }, dir);
	expect(JSON.parse(invalid.stdout).verdict).toBe("deny");
}, 30_000);

test("install acme writes its entries where its descriptor says, and uninstall removes exactly them", async () => {
	const dir = tempDir();
	const original = `${JSON.stringify({ hooks: { before_tool: [{ command: "./mine.sh" }] } }, null, 2)}\n`;
	writeFiles(dir, { ".acme/hooks.json": original });
	const installed = await installBridge("acme", { cwd: dir, command: "/opt/xcsh/xcsh-hooks" });
	expect(installed.file).toBe(join(dir, ".acme", "hooks.json"));
	const written = JSON.parse(readFileSync(installed.file, "utf8"));
	const ours = (block: boolean) => ({ command: entryCommand(`/opt/xcsh/xcsh-hooks bridge acme ${INSTALL_MARKER}`, block), timeout: 60 });
	expect(written.hooks.before_tool).toEqual([{ command: "./mine.sh" }, ours(true)]);
	expect(written.hooks.after_tool).toEqual([ours(false)]);
	await uninstallBridge("acme", { cwd: dir });
	expect(readFileSync(installed.file, "utf8")).toBe(original);
});

test("Acme's own command hooks run in our runner through the provider built from its descriptor", async () => {
	const dir = tempDir();
	const home = tempDir();
	const verdict = JSON.stringify({ verdict: "deny", why: "acme says no" });
	writeFiles(home, { ".acme/hooks.json": JSON.stringify({ hooks: { before_tool: [{ command: `echo '${verdict}'`, matcher: "sh" }] } }) });
	const result = await discoverAndLoadHooks([], dir, { registry: new CapabilityRegistry(), home, settings: false });
	expect(result.errors).toEqual([]);
	expect(result.hooks.map((hook) => hook.path)).toEqual([`${join(home, ".acme", "hooks.json")}#hooks.before_tool[0]`]);
	const runner = new HookRunner(result.hooks, dir);
	const answer = await runner.emitToolCall({ type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "ls" } });
	expect(answer).toEqual({ block: true, reason: expect.stringContaining("acme says no") });
	// `bridge acme` leaves these to Acme itself, which already runs them.
	expect(ownConfigProvider("acme")).toEqual(["acme-hooks"]);
	expect(existsSync(join(dir, ".acme"))).toBe(false);
}, 30_000);
