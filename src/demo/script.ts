import type { AgentMessage } from "../messages.ts";

/** One step the scripted "model" takes in the demo session. */
export type DemoStep =
	| { kind: "say"; text: string }
	| { kind: "tool"; tool: "bash" | "read" | "write" | "edit"; input: Record<string, unknown>; note: string }
	| { kind: "command"; name: string; args: string };

export const DEMO_PROMPT = "Clear out the data folder, write the service config and show it to me.";

/** What the model would see before its first call: a debug message the context filter drops. */
export const DEMO_CONTEXT: AgentMessage[] = [
	{ role: "user", content: DEMO_PROMPT },
	{ role: "custom", customType: "debug", content: "cache warm: 12 files indexed", display: false },
	{ role: "custom", customType: "deploy-notes", content: "staging deploys on Fridays", display: true },
];

/**
 * The scripted session. `rm -rf data` is stopped by the guard module; the `rm -rf /…` call names a
 * path that does not exist, so even a broken hook set could not do harm — the shell pre-hook stops it.
 */
export function demoSteps(missingDir: string): DemoStep[] {
	return [
		{ kind: "say", text: "I'll clear the data folder first." },
		{ kind: "tool", tool: "bash", input: { command: "rm -rf data" }, note: "the guard module blocks it" },
		{ kind: "tool", tool: "bash", input: { command: `rm -rf ${missingDir}` }, note: "the shell pre-hook blocks it" },
		{ kind: "tool", tool: "bash", input: { command: "ls data && du -sh data" }, note: "harmless, allowed" },
		{
			kind: "tool",
			tool: "write",
			input: { path: "config/service.env", content: "SERVICE_URL=https://api.example.test\nAPI_KEY=sk-demo-4f9a1c27e8\nRETRIES=3\n" },
			note: "allowed",
		},
		{ kind: "tool", tool: "edit", input: { path: "config/service.env", oldText: "RETRIES=3", newText: "RETRIES=5" }, note: "allowed" },
		{ kind: "tool", tool: "read", input: { path: "config/service.env" }, note: "the redact hook hides the key" },
		{ kind: "say", text: "Done: data left alone (blocked), config written; the API key is redacted in what I see." },
		{ kind: "command", name: "note", args: "demo finished: config in config/service.env" },
	];
}
