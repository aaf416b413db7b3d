import { Type } from "@sinclair/typebox";
import { type AgentTool, discoverAndLoadHooks, HookRunner, HookToolWrapper, SessionManager } from "xcsh-hooks";

// 1. Load hooks: discovered ones (.xcsh, .claude, .codex, ~/.xcsh/agent) plus your own paths.
const cwd = process.cwd();
const { hooks, errors } = await discoverAndLoadHooks([`${import.meta.dir}/first-hook.ts`], cwd);
for (const e of errors) console.error(`${e.path}: ${e.error}`);

// 2. One runner per agent session, wired to your session store and UI.
const session = SessionManager.inMemory(cwd);
const runner = new HookRunner(hooks, cwd, session);
runner.onError((e) => console.error(`hook ${e.hookPath} failed on ${e.event}: ${e.error}`));
runner.initialize({
	getModel: () => undefined,
	sendMessageHandler: (message) => session.appendCustomMessage(message),
	appendEntryHandler: (customType, data) => session.appendCustomEntry(customType, data),
});

// 3. Wrap every tool the model can call.
const bash: AgentTool = {
	name: "bash",
	label: "Bash",
	description: "Run a shell command",
	parameters: Type.Object({ command: Type.String() }),
	execute: async (_id, params) => ({ content: [{ type: "text", text: `API_KEY=secret ran: ${params.command}` }] }),
};
const tool = new HookToolWrapper(bash, runner);

console.log((await tool.execute("call_1", { command: "ls" })).content); // API_KEY=*** ran: ls
await tool.execute("call_2", { command: "rm -rf /" }).catch((e: Error) => console.log(e.message)); // blocked by policy: rm -rf /

// 4. The rest of the lifecycle goes through the runner too.
const messages = await runner.emitContext([{ role: "user", content: "hi" }]);
await runner.emit({ type: "session_shutdown" });
console.log(messages.length);
