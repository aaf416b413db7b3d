/**
 * A small stand-in for OpenCode's plugin host (docs/agents/opencode.md): imports the plugin file given as
 * argv[2] the way OpenCode does (every exported function is a plugin factory), then calls the hooks as
 * its `Plugin.trigger` does, awaited, with the payload shapes of the recorded fixtures. Prints one JSON
 * object with what each call did. Run with cwd = the project and HOME = a temp home.
 */
export {};

const file = process.argv[2] as string;
const steps = (process.argv[3] ?? "").split(",").filter(Boolean);
const out: Record<string, unknown> = {};
// As OpenCode 1.18.33 does (its server and TUI both listen): an uncaught error is logged, the agent goes on.
const uncaught: string[] = [];
process.on("uncaughtException", (error) => void uncaught.push(String(error)));

let hooks: Record<string, (...args: unknown[]) => Promise<void>> = {};
try {
	const mod = (await import(file)) as Record<string, unknown>;
	const factories = Object.values(mod).filter((value) => typeof value === "function") as Array<(input: unknown) => Promise<typeof hooks>>;
	out.factories = factories.length;
	hooks = await (factories[0] as (input: unknown) => Promise<typeof hooks>)({ directory: process.cwd(), worktree: process.cwd() });
	out.hooks = Object.keys(hooks).sort();
} catch (error) {
	out.initError = String(error);
}

/** One `tool.execute.before`: the args object after the call (same object), or the thrown message. */
async function before(tool: string, args: Record<string, unknown>, callID: string) {
	const output = { args };
	try {
		await hooks["tool.execute.before"]?.({ tool, sessionID: "ses_1", callID }, output);
		return { ran: true, args: output.args, sameObject: output.args === args };
	} catch (error) {
		return { ran: false, reason: (error as Error).message };
	}
}

for (const step of steps) {
	if (step === "rm") out.rm = await before("bash", { command: "rm -rf src", description: "clean" }, "call_1");
	if (step === "harmless")
		out.firstHarmless ??= out.harmless = await before("bash", { command: "echo hi", description: "harmless" }, "call_2");
	if (step === "rewrite") out.rewrite = await before("bash", { command: "echo REWRITE-ME", description: "keep me" }, "call_3");
	if (step === "read") out.read = await before("read", { filePath: "/etc/hostname" }, "call_4");
	if (step === "after") {
		const args = { command: "cat deploy.conf", description: "show" };
		await before("bash", args, "call_5");
		const text = "SERVICE=demo\nAPI_KEY=sk-live-123\n";
		const output = {
			title: "cat",
			output: text,
			metadata: {
				output: text,
				preview: "API_KEY=sk-live-123",
				exit: 0,
				truncated: false,
				// As OpenCode 1.18.33's read tool stores it: the file's text again, one level down.
				display: { type: "file", text: "SERVICE=demo\nAPI_KEY=sk-live-123", lineStart: 1, lines: ["API_KEY=sk-live-123", "SERVICE=demo"] },
			},
		};
		await hooks["tool.execute.after"]?.({ tool: "bash", sessionID: "ses_1", callID: "call_5", args }, output);
		out.after = output;
	}
	if (step === "context") {
		await hooks["chat.message"]?.({ sessionID: "ses_1" }, { message: { role: "user" }, parts: [{ type: "text", text: "hello there" }] });
		const output = { system: ["You are OpenCode."] };
		await hooks["experimental.chat.system.transform"]?.({ sessionID: "ses_1", model: {} }, output);
		out.system = output.system;
	}
	// `messages`: the messages transform over a conversation as OpenCode passes it (a tool part beside
	// the text, a tool-only message); what is left of it, in place.
	if (step === "messages") {
		const output = {
			messages: [
				{ info: { role: "user", id: "m1" }, parts: [{ type: "text", text: "first question" }] },
				{
					info: { role: "assistant", id: "m2" },
					parts: [
						{ type: "text", text: "let me look" },
						{ type: "tool", tool: "bash", state: { output: "TOOL-OUT" } },
					],
				},
				{ info: { role: "assistant", id: "m3" }, parts: [{ type: "tool", tool: "read", state: { output: "READ-OUT" } }] },
				{ info: { role: "user", id: "m4" }, parts: [{ type: "text", text: "DROP-ME please" }] },
				{ info: { role: "user", id: "m5" }, parts: [{ type: "text", text: "edit-me" }] },
			],
		};
		const list = output.messages;
		await hooks["experimental.chat.messages.transform"]?.({}, output);
		out.messages = { sameArray: output.messages === list, messages: output.messages };
	}
	// `bash:<command>`: one bash call with that command, its outcome under the step's name.
	if (step.startsWith("bash:")) out[step] = await before("bash", { command: step.slice(5) }, `call_${step}`);
	if (step === "event") await hooks.event?.({ event: { id: "evt_1", type: "session.created", properties: {} } });
	if (step.startsWith("wait")) await Bun.sleep(Number(step.slice(4)));
	// The host is up and its hooks loaded: tell the test (a file, as the test cannot read stdout yet).
	if (step === "ready") await Bun.write(".host-ready", "1");
	// `rmUntil<ms>`: the `rm` call again every 100 ms until a hook blocks it, bounded by <ms>; a file watcher
	// on a busy machine may take seconds to report, so no fixed sleep can tell "slow" from "never".
	// `harmlessUntil<ms>`: the harmless call again every 100 ms until it runs, bounded by <ms>.
	if (step.startsWith("harmlessUntil")) {
		const deadline = Date.now() + Number(step.slice(13));
		let tries = 0;
		do {
			tries++;
			out.harmless = await before("bash", { command: "echo hi", description: "harmless" }, `call_ok_${tries}`);
			if ((out.harmless as { ran: boolean }).ran) break;
			await Bun.sleep(100);
		} while (Date.now() < deadline);
	}
	if (step.startsWith("rmUntil")) {
		const deadline = Date.now() + Number(step.slice(7));
		let tries = 0;
		do {
			tries++;
			const rm = await before("bash", { command: "rm -rf src", description: "clean" }, `call_rm_${tries}`);
			out.rm = rm;
			if (!rm.ran) break;
			await Bun.sleep(100);
		} while (Date.now() < deadline);
		out.rmTries = tries;
	}
}
if (uncaught.length > 0) out.uncaught = uncaught;
await (hooks.dispose as (() => Promise<void>) | undefined)?.();
console.log(JSON.stringify(out));
// The agent's own exit (with a code of its own, to tell it from a plain end) still works with the plugin loaded.
process.exit(steps.includes("exit7") ? 7 : 0);
