/**
 * `permission_request` is an entry of the event table, and what makes it answer an approval prompt is
 * the entry's data: the `answer` combine rule ("first deny wins, else last allow"), `guard` (fail
 * closed), the `approve` outcome. A made-up event with the same rule under other field names (added in
 * this test alone) is combined, failed closed and answered the same way, so no code names the event.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import type { AgentBridge, AgentEventSpec } from "../../src/agents/_shared/bridge-types.ts";
import { obj, opt, str } from "../../src/agents/_shared/fields.ts";
import { claudeBridge, claudeEvents } from "../../src/agents/claude/bridge.ts";
import { isGuard, mapPayload, toOutcome } from "../../src/agent-call/map.ts";
import { runBridge } from "../../src/agent-call/run.ts";
import { answer, deniedResult, eventRule } from "../../src/hooks/event-rules.ts";
import { addEntryForTesting, EVENTS, type EventEntry } from "../../src/hooks/events.ts";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import type { HookEvent, HookEventType } from "../../src/hooks/types.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const REVIEW_REQUEST: EventEntry = {
	summary: "A made-up approval: pass or reject.",
	payload: Type.Object({
		type: Type.Literal("review_request"),
		toolName: Type.String({ minLength: 1 }),
		input: Type.Record(Type.String(), Type.Unknown()),
	}),
	result: Type.Object(
		{ verdict: Type.Union([Type.Literal("pass"), Type.Literal("reject")]), reason: Type.Optional(Type.String()) },
		{ additionalProperties: false },
	),
	combine: answer("verdict", "reject", "rejected by a hook"),
	outcome: "approve",
	guard: true,
};

const reviewRequested: AgentEventSpec = {
	fields: { session_id: str, hook_event_name: str, cwd: opt(str), tool_name: str, tool_input: obj() },
	to: "review_request" as HookEventType,
	event: (p) => ({ toolName: String(p.tool_name), input: p.tool_input as Record<string, unknown> }),
};
const claudeWithReviews: AgentBridge = { ...claudeBridge, events: { ...claudeEvents, ReviewRequested: reviewRequested } };

const review = (command: string) => ({ type: "review_request", toolName: "bash", input: { command } }) as unknown as HookEvent;

const HOOKS: Record<string, string> = {
	"pass.ts": `export default (pi) => pi.on("review_request", () => ({ verdict: "pass", reason: "PASS-ONE" }));\n`,
	"pass-two.ts": `export default (pi) => pi.on("review_request", () => ({ verdict: "pass", reason: "PASS-TWO" }));\n`,
	"reject.ts": `export default (pi) => pi.on("review_request", (e) => e.input.command === "rm" ? { verdict: "reject", reason: "REJECT-RM" } : undefined);\n`,
	"reject-two.ts": `export default (pi) => pi.on("review_request", () => ({ verdict: "reject", reason: "REJECT-TWO" }));\n`,
	"throws.ts": `export default (pi) => pi.on("review_request", () => { throw new Error("REVIEW-CRASHED"); });\n`,
};

let dir: string;
const hook = (name: string) => join(dir, name);
let remove: (() => void) | undefined;

beforeAll(() => {
	dir = tempDir("xcsh-hooks-answer-rule-");
	writeFiles(dir, HOOKS);
	remove = addEntryForTesting("review_request", REVIEW_REQUEST);
});
afterAll(() => remove?.());

async function runnerOf(...names: string[]): Promise<{ runner: HookRunner; errors: string[] }> {
	const { hooks, errors: loadErrors } = await loadHooks(names.map(hook), dir);
	expect(loadErrors).toEqual([]);
	const runner = new HookRunner(hooks, dir);
	const errors: string[] = [];
	runner.onError((error) => errors.push(error.error));
	return { runner, errors };
}

describe("the answer rule, as data", () => {
	test("permission_request's entry: answer on decision (deny stops), a guard, the approve outcome, built as a permission", () => {
		expect(EVENTS.permission_request.combine).toEqual({ rule: "answer", field: "decision", stopsOn: "deny", stopped: "denied by a hook" });
		expect(eventRule("permission_request")).toMatchObject({ guard: true, outcome: "approve", bridge: "permission" });
		expect(eventRule("tool_call")?.combine).toEqual({ rule: "block", verdicts: ["block", "ask"], chain: "input" });
		expect(deniedResult("permission_request", "why")).toEqual({ decision: "deny", reason: "why" });
		expect(deniedResult("review_request", "why")).toEqual({ verdict: "reject", reason: "why" });
		expect(deniedResult("tool_call", "why")).toEqual({ block: true, reason: "why" });
	});

	test("the first stopping answer ends dispatch at once; otherwise the last answer wins", async () => {
		const rejected = await runnerOf("pass.ts", "reject.ts", "reject-two.ts", "throws.ts");
		expect((await rejected.runner.emit(review("rm"))) as unknown).toEqual({ verdict: "reject", reason: "REJECT-RM" });
		expect(rejected.errors).toEqual([]); // the handlers after the first reject never ran
		const passed = await runnerOf("pass.ts", "reject.ts", "pass-two.ts");
		expect((await passed.runner.emit(review("ls"))) as unknown).toEqual({ verdict: "pass", reason: "PASS-TWO" });
	}, 30_000);

	test("the bridge map reads the table: a stop denies, the allowing answer approves, none is no opinion", () => {
		expect(isGuard(reviewRequested)).toBe(true);
		const rejectedTool = review("rm");
		expect(toOutcome(rejectedTool, { result: { verdict: "reject", reason: "R" }, stopped: "R" })).toEqual({ kind: "deny", reason: "R" });
		expect(toOutcome(rejectedTool, { result: undefined })).toEqual({ kind: "none" });
		expect(toOutcome(rejectedTool, { result: { verdict: "pass" } })).toEqual({ kind: "approve" });
		const payload = { session_id: "s1", hook_event_name: "ReviewRequested", cwd: dir, tool_name: "Bash", tool_input: { command: "ls" } };
		expect(mapPayload(claudeWithReviews, "ReviewRequested", payload)).toMatchObject({ kind: "event", event: { type: "review_request" } });
	});

	test("a whole bridge call fails closed: a hook that throws denies, naming the error; a reject denies with its reason", async () => {
		const stdin = (command: string) =>
			new TextEncoder().encode(
				JSON.stringify({ session_id: "s1", hook_event_name: "ReviewRequested", cwd: dir, tool_name: "Bash", tool_input: { command } }),
			);
		const crashed = await runBridge(claudeWithReviews, { stdin: stdin("ls"), hookPaths: [hook("throws.ts")], discovery: false, cwd: dir });
		expect(crashed.stdout).toContain("deny");
		expect(crashed.stdout).toContain("REVIEW-CRASHED");
		expect(crashed.stdout).toContain("fail closed");
		expect(crashed.decision).toMatchObject({ decision: "deny" });

		const rejected = await runBridge(claudeWithReviews, { stdin: stdin("rm"), hookPaths: [hook("reject.ts")], discovery: false, cwd: dir });
		expect(rejected.stdout).toContain("REJECT-RM");
		expect(rejected.decision).toMatchObject({ decision: "deny" });

		const passed = await runBridge(claudeWithReviews, { stdin: stdin("ls"), hookPaths: [hook("pass.ts")], discovery: false, cwd: dir });
		expect(passed.stdout).toContain("allow");
		expect(passed.decision).toMatchObject({ decision: "allow" });

		const nothing = await runBridge(claudeWithReviews, { stdin: stdin("ls"), hookPaths: [hook("reject.ts")], discovery: false, cwd: dir });
		expect(nothing.stdout).toBe("");
	}, 120_000);
});
