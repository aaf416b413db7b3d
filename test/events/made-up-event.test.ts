/**
 * Adding an event is one table entry, one agent mapping and a test: this file is all three. It adds a
 * made-up guard event, `deploy_request`, whose results combine by the `block` rule with a second
 * verdict (`hold`) between block and allow — the shape "block beats ask beats allow" takes — and shows it
 * loaded, dispatched by the runner, mapped and answered through Claude Code's bridge, and run in the
 * test harness, without a line of src/ naming it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import type { AgentBridge, AgentEventSpec } from "../../src/agents/_shared/bridge-types.ts";
import { opt, str } from "../../src/agents/_shared/fields.ts";
import { claudeBridge, claudeEvents } from "../../src/agents/claude/bridge.ts";
import { isGuard, mapPayload, toOutcome } from "../../src/agent-call/map.ts";
import { runBridge } from "../../src/agent-call/run.ts";
import { block } from "../../src/hooks/event-rules.ts";
import { addEntryForTesting, type EventEntry } from "../../src/hooks/events.ts";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import type { HookEvent, HookEventType } from "../../src/hooks/types.ts";
import { validateEvent } from "../../src/hooks/validate.ts";
import { createHookHarness } from "../../src/testing/harness.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

// 1. The table entry.
const DEPLOY_REQUEST: EventEntry = {
	summary: "Before a deploy: block it, hold it for a person, or change what is deployed.",
	payload: Type.Object({
		type: Type.Literal("deploy_request"),
		target: Type.String({ minLength: 1 }),
		input: Type.Record(Type.String(), Type.Unknown()),
	}),
	result: Type.Object(
		{
			block: Type.Optional(Type.Boolean()),
			hold: Type.Optional(Type.Boolean()),
			reason: Type.Optional(Type.String()),
			input: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
		},
		{ additionalProperties: false },
	),
	combine: block(["block", "hold"], "input"),
	outcome: "deny",
	guard: true,
};

// 2. One agent mapping: a (made-up) Claude Code hook event `DeployRequested`.
const deployRequested: AgentEventSpec = {
	fields: { session_id: str, hook_event_name: str, cwd: opt(str), target: str },
	to: "deploy_request" as HookEventType,
	event: (p) => ({ target: p.target, input: { target: p.target } }),
};
const claudeWithDeploys: AgentBridge = { ...claudeBridge, events: { ...claudeEvents, DeployRequested: deployRequested } };

// 3. The test.
const deploy = (target: string) => ({ type: "deploy_request", target, input: { target } }) as unknown as HookEvent;

const HOOKS: Record<string, string> = {
	"hold.ts": `export default (pi) => pi.on("deploy_request", (e) => e.target === "prod" ? { hold: true, reason: "prod needs a person" } : undefined);\n`,
	"retarget.ts": `export default (pi) => pi.on("deploy_request", (e) => ({ input: { ...e.input, target: e.input.target + "-canary" } }));\n`,
	"freeze.ts": `export default (pi) => pi.on("deploy_request", () => ({ block: true, reason: "deploys are frozen" }));\n`,
	"throws.ts": `export default (pi) => pi.on("deploy_request", () => { throw new Error("DEPLOY-GUARD-CRASHED"); });\n`,
	"typo.ts": `export default (pi) => pi.on("deploy_request", () => ({ blok: true }));\n`,
};

let dir: string;
const hook = (name: string) => join(dir, name);
let remove: (() => void) | undefined;

beforeAll(() => {
	dir = tempDir("xcsh-hooks-made-up-event-");
	writeFiles(dir, HOOKS);
});
afterAll(() => remove?.());

async function runnerOf(...names: string[]): Promise<{ runner: HookRunner; errors: string[] }> {
	const { hooks, errors: loadErrors } = await loadHooks(names.map(hook), dir);
	expect(loadErrors).toEqual([]);
	const runner = new HookRunner(hooks, dir);
	const errors: string[] = [];
	runner.onError((error) => errors.push(`${error.event}: ${error.error}`));
	return { runner, errors };
}

describe("a made-up event: one table entry, one agent mapping", () => {
	test("before its entry is added it is no event: a hook that subscribes to it fails to load, and its payload is refused", async () => {
		const { errors } = await loadHooks([hook("freeze.ts")], dir);
		expect(errors[0]?.error).toContain("deploy_request");
		expect(validateEvent(deploy("prod"))).toMatchObject({ ok: false });
		remove = addEntryForTesting("deploy_request", DEPLOY_REQUEST);
		expect(validateEvent(deploy("prod"))).toMatchObject({ ok: true });
		expect(validateEvent({ type: "deploy_request", target: "", input: {} })).toMatchObject({
			ok: false,
			errors: [expect.stringContaining("deploy_request.target")],
		});
	});

	test("the runner combines it by its rule: block ends at once, hold beats allow, the input is chained", async () => {
		const held = await runnerOf("retarget.ts", "hold.ts", "retarget.ts");
		// The second retarget sees the first's input; hold outranks the allows around it; the input stays chained.
		expect((await held.runner.emit(deploy("prod"))) as unknown).toEqual({
			hold: true,
			reason: "prod needs a person",
			input: { target: "prod-canary-canary" },
		});
		expect(await held.runner.emit(deploy("dev"))).toEqual({ input: { target: "dev-canary-canary" } });

		const frozen = await runnerOf("hold.ts", "freeze.ts", "throws.ts");
		expect(await frozen.runner.emit(deploy("prod"))).toEqual({ block: true, reason: "deploys are frozen" });
		expect(frozen.errors).toEqual([]); // dispatch ended at the block: the handler after it never ran
	}, 30_000);

	test("it guards: a handler that throws or returns a result its schema refuses denies, and is reported", async () => {
		const crashed = await runnerOf("throws.ts");
		expect(await crashed.runner.emit(deploy("dev"))).toEqual({ block: true, reason: "DEPLOY-GUARD-CRASHED" });
		expect(crashed.errors).toEqual(["deploy_request: DEPLOY-GUARD-CRASHED"]);

		const typo = await runnerOf("typo.ts");
		const result = (await typo.runner.emit(deploy("dev"))) as { block?: boolean; reason?: string };
		expect(result.block).toBe(true);
		expect(result.reason).toContain("invalid deploy_request result");
		expect(result.reason).toContain("blok");
	}, 30_000);

	test("the bridge map reads the agent's mapping and the table: the payload becomes the event, a block becomes a deny", () => {
		const payload = { session_id: "s1", hook_event_name: "DeployRequested", cwd: dir, target: "prod" };
		expect(isGuard(deployRequested)).toBe(true);
		const mapped = mapPayload(claudeWithDeploys, "DeployRequested", payload);
		expect(mapped).toEqual({ kind: "event", event: deploy("prod") });
		expect(mapPayload(claudeWithDeploys, "DeployRequested", { session_id: "s1", hook_event_name: "DeployRequested" })).toMatchObject({
			kind: "invalid",
			errors: [expect.stringContaining("target")],
		});
		expect(toOutcome(deploy("prod"), { result: { block: true, reason: "deploys are frozen" }, stopped: "deploys are frozen" })).toEqual({
			kind: "deny",
			reason: "deploys are frozen",
		});
		// The bridge of an agent without the mapping has no opinion on the name.
		expect(mapPayload(claudeBridge, "DeployRequested", payload)).toMatchObject({ kind: "none" });
	});

	test("a whole bridge call: Claude Code's answer denies with the hook's reason; a crashed guard denies (fail closed)", async () => {
		const stdin = (target: string) =>
			new TextEncoder().encode(JSON.stringify({ session_id: "s1", hook_event_name: "DeployRequested", cwd: dir, target }));
		const frozen = await runBridge(claudeWithDeploys, { stdin: stdin("prod"), hookPaths: [hook("freeze.ts")], discovery: false, cwd: dir });
		expect(JSON.parse(frozen.stdout).hookSpecificOutput).toMatchObject({
			permissionDecision: "deny",
			permissionDecisionReason: expect.stringContaining("deploys are frozen"),
		});
		expect(frozen.decision).toMatchObject({ agent: "claude", event: "DeployRequested", decision: "deny" });

		const crashed = await runBridge(claudeWithDeploys, { stdin: stdin("dev"), hookPaths: [hook("throws.ts")], discovery: false, cwd: dir });
		expect(JSON.parse(crashed.stdout).hookSpecificOutput).toMatchObject({
			permissionDecision: "deny",
			permissionDecisionReason: expect.stringContaining("DEPLOY-GUARD-CRASHED"),
		});

		const allowed = await runBridge(claudeWithDeploys, { stdin: stdin("dev"), hookPaths: [hook("hold.ts")], discovery: false, cwd: dir });
		expect(allowed.stdout).toBe("");
		expect(allowed.decision).toMatchObject({ decision: "allow" });
	}, 120_000);

	test("the test harness runs it like any event", async () => {
		const harness = await createHookHarness(hook("hold.ts"), { cwd: dir });
		expect((await harness.emit(deploy("prod"))) as unknown).toEqual({ hold: true, reason: "prod needs a person" });
		const crashed = await createHookHarness(hook("throws.ts"), { cwd: dir });
		expect(await crashed.emit(deploy("prod"))).toEqual({ block: true, reason: "DEPLOY-GUARD-CRASHED" });
		expect(crashed.errors.map((e) => e.event)).toEqual(["deploy_request"]);
	}, 30_000);
});
