import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Checks, tail } from "./checks.ts";
import type { ModelServer } from "./model/server.ts";
import type { ModelApi, ToolStep } from "./model/types.ts";
import type { RunResult } from "./process.ts";
import type { Sandbox } from "./sandbox.ts";

/** The secret a PostToolUse hook must keep from the model. */
export const SECRET = "sk-live-5ecr3t-0123456789";
/** What it is replaced with. */
export const REDACTED = "API_KEY=[REDACTED]";
/** Output of the harmless command, so the check knows it ran and reached the model. */
export const HARMLESS = "HARMLESS-OUTPUT-42";

/** Markers a set of hooks puts into the conversation, so the checks know whose work they see. */
export interface Markers {
	/** Text in the deny reason of the guard. */
	deny: string;
	/** The injected prompt context. */
	context: string;
}

/** Files of the standard project: a `data/` for `rm -rf` to destroy and a `deploy.conf` holding the secret (Gemini refuses to read any `.env`). */
export function projectFiles(): Record<string, string> {
	return {
		"proj/data/keep.txt": "must survive\n",
		"proj/deploy.conf": `SERVICE=demo\nAPI_KEY=${SECRET}\n`,
	};
}

/** The standard script: a destructive call, a harmless call, a read of `deploy.conf` (`cat` where the agent has no read tool). */
export function standardSteps(sandbox: Sandbox): ToolStep[] {
	return [
		{ kind: "shell", command: "rm -rf data", description: "clean the data folder" },
		{ kind: "shell", command: `echo ${HARMLESS} && touch harmless.txt`, description: "harmless" },
		{ kind: "read", path: join(sandbox.proj, "deploy.conf") },
	];
}

/** What one agent run left behind, for {@link checkStandard}. */
export interface Outcome {
	run: RunResult;
	server: ModelServer;
	api: ModelApi;
	sandbox: Sandbox;
	markers: Markers;
	/** Which of the standard assertions this agent's hooks are set up for. */
	expect: { deny: boolean; harmless: boolean; redact: boolean; context: boolean };
}

/** The standard assertions: guard, harmless call, redaction, injected context, clean end. */
export function checkStandard(checks: Checks, o: Outcome): void {
	const { run, server, api, sandbox, markers } = o;
	const diag = `exit ${run.code}${run.timedOut ? " (timed out)" : ""}; stderr: ${tail(run.stderr)}; stdout: ${tail(run.stdout, 200)}`;
	checks.expect("agent exited 0 within its time limit", run.code === 0 && !run.timedOut, diag);
	const main = server.main();
	const last = main.at(-1);
	const results = last ? api.toolResults(last.body) : [];
	checks.expect(
		"model got a tool result for each of the 3 scripted calls",
		results.length === 3,
		`main turns: ${main.length}, results: ${JSON.stringify(results).slice(0, 600)}; ${diag}`,
	);
	if (o.expect.deny) {
		const r = results[0];
		checks.expect("guard: model got the deny reason for `rm -rf data`", !!r?.text.includes(markers.deny), `result: ${JSON.stringify(r)}`);
		checks.expect("guard: `rm -rf data` did not run (data/keep.txt still there)", existsSync(join(sandbox.proj, "data", "keep.txt")));
	}
	if (o.expect.harmless) {
		const r = results[1];
		checks.expect("harmless call ran (harmless.txt created)", existsSync(join(sandbox.proj, "harmless.txt")));
		checks.expect("harmless call: model got its output", !!r?.text.includes(HARMLESS), `result: ${JSON.stringify(r)}`);
	}
	if (o.expect.redact) {
		const r = results[2];
		checks.expect("redaction: model got the redacted file content", !!r?.text.includes(REDACTED), `result: ${JSON.stringify(r)}`);
		const leaked = server.requests.filter((q) => JSON.stringify(q.body).includes(SECRET));
		checks.expect(
			"redaction: the secret is in no request the model server received",
			leaked.length === 0,
			`${leaked.length} request(s) carried it, first: ${leaked[0]?.path}`,
		);
	}
	if (o.expect.context) {
		const first = main[0];
		checks.expect(
			"context: the first model request carries the UserPromptSubmit context",
			!!first && JSON.stringify(first.body).includes(markers.context),
			`first main request: ${first ? "no marker" : "none"}`,
		);
	}
	const other = server.requests.filter((q) => q.kind === "other").map((q) => `${q.method} ${q.path}`);
	if (other.length > 0) checks.expect("model server: no unknown endpoint was called", false, [...new Set(other)].join(", "));
}
