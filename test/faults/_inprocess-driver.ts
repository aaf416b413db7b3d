/**
 * Drives the in-process runtime (src/inprocess/runtime.ts) and OpenCode's plugin hooks directly, in
 * a process of its own with a temp HOME (argv[2] names the scenario; cwd is the project). Prints one
 * JSON object. Used by inprocess-review.test.ts.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { opencodeFamily } from "../../src/agents/_shared/opencode-family.ts";
import { startInProcess } from "../../src/inprocess/runtime.ts";

const scenario = process.argv[2];
const out: Record<string, unknown> = {};
const handle = await startInProcess({ agent: "opencode", directory: process.cwd(), log: () => {} });
const rm = () => handle.toolCall({ toolName: "bash", toolCallId: "c1", input: { command: "rm -rf build" }, event: "tool.execute.before" });

if (scenario === "reload-race") {
	// The armed hook, re-imported by this reload, adds a blocking hook to the folder while the load runs.
	writeFileSync(join(process.env.HOME as string, "armed"), "1");
	await handle.reload();
	out.hookWritten = existsSync(join(process.env.HOME as string, ".xcsh/agent/hooks/late.ts"));
	// Bounded: a watcher that saw the change reloads within its 100 ms debounce plus a load.
	const deadline = Date.now() + 8000;
	let decision = await rm();
	while (!decision.block && Date.now() < deadline) {
		await Bun.sleep(100);
		decision = await rm();
	}
	out.rm = decision;
}

if (scenario === "system-fix") {
	// Run as root in teams-review.test.ts's namespace: the system guard's helper is writable by anyone, so it
	// fails closed; made root's alone, the watcher reloads it and the guard itself decides.
	out.before = await rm();
	require("node:fs").chmodSync("/etc/xcsh/lib/policy.ts", 0o644);
	const deadline = Date.now() + 8000;
	let decision = await rm();
	while (!(decision.block && decision.reason === "SYSTEM-GUARD") && Date.now() < deadline) {
		await Bun.sleep(100);
		decision = await rm();
	}
	out.after = decision;
}

if (scenario === "proto-rewrite") {
	const hooks = opencodeFamily.hooks(handle, { directory: process.cwd() }) as Record<string, (...a: unknown[]) => Promise<void>>;
	// The model's arguments for a tool no rule maps, as JSON.parse gives them: "__proto__" is an own key.
	const args = JSON.parse('{"url":"https://example.test/","__proto__":{"format":"INHERITED"}}') as Record<string, unknown>;
	await hooks["tool.execute.before"]?.({ tool: "webfetch", callID: "c2" }, { args });
	out.protoKept = Object.getPrototypeOf(args) === Object.prototype;
	out.inheritedFormat = (args as { format?: unknown }).format ?? null;
	out.ownProto = Object.hasOwn(args, "__proto__");
	out.tag = args.tag ?? null;
}

handle.close();
console.log(JSON.stringify(out));
process.exit(0);
