import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerOf, fixture, type Run, spawnRun, workspace } from "./_bridge.ts";
import { AGENT_CASES, type AgentCase, type FixtureRef } from "./_cases.ts";

/**
 * The bridge behaviour matrix, end to end through real processes, for every agent: one definition,
 * run against `bun src/cli.ts` and against the compiled executable (`argv` gives the command).
 */
export function bridgeMatrix(argv: () => string[]): void {
	let ws: ReturnType<typeof workspace>;
	beforeAll(() => {
		ws = workspace();
	});

	for (const c of AGENT_CASES) {
		describe(`bridge ${c.label}`, () => {
			const load = (ref: FixtureRef) => fixture(c.agent, ref.file, ws.project);
			const run = (
				ref: FixtureRef,
				stdin: string | Uint8Array | Record<string, unknown>,
				hooks: string[],
				extra: string[] = [],
				env?: Record<string, string>,
			): Promise<Run> =>
				spawnRun(
					[
						...argv(),
						"bridge",
						c.agent,
						"--no-discovery",
						...hooks.flatMap((h) => ["--hook", ws.hook(h)]),
						...(ref.event ? ["--event", ref.event] : []),
						...extra,
					],
					{
						stdin: typeof stdin === "string" || stdin instanceof Uint8Array ? stdin : JSON.stringify(stdin),
						home: ws.home,
						cwd: ws.project,
						env,
					},
				);
			const pre = (command: string) => {
				const payload = load(c.pre);
				c.setCommand(payload, command);
				return payload;
			};
			const denied = (run: Run, ...needles: string[]) => deniedAs(c.deny, run, ...needles);
			// A payload the bridge cannot read names no tool: some agents' deny depends on the tool.
			const deniedUnread = (run: Run, ...needles: string[]) => deniedAs(c.denyUnread ?? c.deny, run, ...needles);
			const deniedAs = (deny: AgentCase["deny"], run: Run, ...needles: string[]) => {
				const answer = answerOf(run);
				expect(answer).toEqual(deny(expect.any(String)) as never);
				const text = JSON.stringify(answer);
				for (const needle of needles) expect(text).toContain(needle);
			};

			test("deny: a blocked call is the agent's explicit deny, exit 0", async () => {
				denied(await run(c.pre, pre("rm -rf build"), ["policy.ts"]), "POLICY: rm -rf is not allowed", "policy.ts");
			}, 60_000);
			test("allow: a call no hook objects to gets no opinion", async () => {
				expect(answerOf(await run(c.pre, pre("ls build"), ["policy.ts"]))).toEqual(c.none);
			}, 60_000);
			test("rewrite: the agent's whole input in its own field names, other fields kept", async () => {
				expect(answerOf(await run(c.pre, pre("echo REWRITE-ME"), ["policy.ts"]))).toEqual(c.rewrite);
			}, 60_000);
			test("replaced output: in the agent's nearest form", async () => {
				expect(answerOf(await run(c.post, load(c.post), ["policy.ts"]))).toEqual(c.replace);
			}, 60_000);
			test("context: a before_agent_start message becomes the agent's context", async () => {
				expect(answerOf(await run(c.prompt, load(c.prompt), ["policy.ts"]))).toEqual(c.context);
			}, 60_000);
			test("fail closed: a hook that failed to load denies, naming it", async () => {
				denied(await run(c.pre, pre("ls build"), ["policy.ts", "broken.ts"]), "broken.ts");
			}, 60_000);
			test("fail closed: a throwing hook denies, naming the error and the hook", async () => {
				denied(await run(c.pre, pre("ls build"), ["throws.ts"]), "GUARD-CRASHED", "throws.ts");
			}, 60_000);
			test("fail closed: hooks that do not answer in time deny (--timeout)", async () => {
				denied(await run(c.pre, pre("ls build"), ["hangs.ts"], ["--timeout", "1"]), "did not answer within 1 s", "hangs.ts");
			}, 60_000);
			test("fail closed: an invalid hook result denies", async () => {
				denied(await run(c.pre, pre("ls build"), ["invalid.ts"]), "invalid.ts");
			}, 60_000);
			test("a failing hook on a non-guard event: no opinion, the error on stderr", async () => {
				const result = await run(c.prompt, load(c.prompt), ["throws.ts"]);
				expect(answerOf(result)).toEqual("promptNone" in c ? c.promptNone : c.none);
				expect(result.stderr).toContain("PROMPT-HOOK-CRASHED");
			}, 60_000);
			test("an unknown agent event is no opinion, never an error", async () => {
				const payload = load(c.prompt);
				const extra = c.renameEvent(payload, c.agent === "copilot" ? "futureEvent" : "FutureEvent");
				const result = await run({ file: c.prompt.file }, payload, ["policy.ts"], extra);
				expect(answerOf(result)).toEqual(c.none);
				expect(result.stderr).toBe("");
			}, 60_000);
			test("bad payload on a guard event: deny naming the missing field", async () => {
				const payload = pre("ls");
				delete payload[c.toolField];
				deniedUnread(await run(c.pre, payload, ["policy.ts"]), c.toolField);
			}, 60_000);
			test("bad payload on a guard event: not JSON, not UTF-8 → deny", async () => {
				deniedUnread(await run(c.pre, "{not json", ["policy.ts"]), "not valid JSON");
				deniedUnread(await run(c.pre, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), ["policy.ts"]), "UTF-8");
			}, 60_000);
			test("bad payload on another event: no opinion, the field named on stderr", async () => {
				const payload = load(c.prompt);
				delete payload[c.promptField];
				const result = await run(c.prompt, payload, ["policy.ts"]);
				expect(answerOf(result)).toEqual(c.none);
				expect(result.stderr).toContain(c.promptField);
			}, 60_000);
			test("hooks' console.log and stdout writes never reach the agent's stdout (needs the lead's claimStdout)", async () => {
				const blocked = await run(c.pre, pre("rm -rf build"), ["noisy.ts"]);
				expect(blocked.stdout).not.toContain("HOOK-NOISE");
				denied(blocked, "NOISY: no");
				expect(blocked.stderr).toContain("HOOK-NOISE-IN-HANDLER");
			}, 60_000);
		});
	}

	describe("bridge settings", () => {
		test("a handler timeout from the user's settings (hookTimeoutMs) denies too", async () => {
			const home = join(ws.home, "..", "home-timeout");
			const { mkdirSync } = await import("node:fs");
			mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
			writeFileSync(join(home, ".xcsh", "agent", "settings.json"), JSON.stringify({ hookTimeoutMs: 200 }));
			const payload = fixture("claude", "PreToolUse.Bash.json", ws.project);
			const result = await spawnRun([...argv(), "bridge", "claude", "--no-discovery", "--hook", ws.hook("hangs.ts")], {
				stdin: JSON.stringify(payload),
				home,
				cwd: ws.project,
			});
			const answer = answerOf(result) as { hookSpecificOutput: { permissionDecision: string } };
			expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
		}, 60_000);
	});
}

/** Exported for the unit tests: the cases themselves. */
export type { AgentCase };
