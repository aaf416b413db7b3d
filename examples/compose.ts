import { Type } from "@sinclair/typebox";
import { type AgentTool, HookRunner, HookToolWrapper, loadHooks } from "xcsh-hooks";

// Load order is dispatch order: the rewriter runs before the guard, the redactors after the tool.
const cwd = process.cwd();
const paths = ["rewrite-dry-run.ts", "first-hook.ts", "redact-emails.ts"].map((file) => `${import.meta.dir}/${file}`);
const { hooks, errors } = await loadHooks(paths, cwd);
for (const e of errors) console.error(`${e.path}: ${e.error}`);
const runner = new HookRunner(hooks, cwd);
runner.onError((e) => console.error(`hook ${e.hookPath} failed on ${e.event}: ${e.error}`));

const bash: AgentTool = {
	name: "bash",
	label: "Bash",
	description: "Run a shell command",
	parameters: Type.Object({ command: Type.String() }),
	execute: async (_id, params) => ({
		content: [{ type: "text", text: `ran: ${params.command}\nAPI_KEY=secret owner=ops@example.com` }],
	}),
};
const tool = new HookToolWrapper(bash, runner);

const result = await tool.execute("call_1", { command: "kubectl apply -f app.yaml" });
console.log(result.content[0]); // ran: kubectl apply -f app.yaml --dry-run=server, API_KEY=*** owner=<email>
await tool.execute("call_2", { command: "rm -rf /" }).catch((e: Error) => console.log(e.message)); // blocked by policy: rm -rf /
