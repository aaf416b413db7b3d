/**
 * What a hook author notices when something is off (docs/contract.md#hook-modules, #loading, #the-runner, #the-tool-wrapper): a misspelt event is a load
 * error (and so blocks `tool_call`), load errors read exactly as upstream's, absolute paths stay as
 * given, `before_agent_start` handlers cannot leak changes to each other, and a block is a
 * `ToolBlockedError` while a hook's own error comes back as it was thrown.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import * as root from "xcsh-hooks";
import * as hooksEntry from "xcsh-hooks/hooks";
import { type AgentTool, HookRunner, HookToolWrapper, loadHookFromFactory, loadHooks, ToolBlockedError } from "xcsh-hooks";
import { project, returning, runCli, useClis } from "./_compose.ts";

const clis = useClis();

const TYPO = `export default (pi) => pi.on("tool_cal", () => ({ block: true, reason: "never runs" }));\n`;
const TYPO_ERROR = 'Failed to load hook: Unknown event "tool_cal" (did you mean "tool_call"?)';

/** A tool that counts its runs. */
function countingTool() {
	const runs: unknown[] = [];
	const tool: AgentTool = {
		name: "deploy",
		label: "Deploy",
		description: "deploys",
		parameters: Type.Object({ target: Type.String() }),
		execute: async (_id, params) => {
			runs.push(params);
			return { content: [{ type: "text", text: "deployed" }] };
		},
	};
	return { tool, runs };
}

async function wrapFactory(factory: root.HookFactory) {
	const hook = await loadHookFromFactory(factory, "<test>", process.cwd());
	const { tool, runs } = countingTool();
	return { wrapper: new HookToolWrapper(tool, new HookRunner([hook], process.cwd())), runs };
}

describe("unknown event names", () => {
	test('pi.on("tool_cal") is a load error that suggests "tool_call"', async () => {
		const dir = project({ "typo.ts": TYPO });
		expect(await loadHooks(["typo.ts"], dir)).toEqual({ hooks: [], errors: [{ path: "typo.ts", error: TYPO_ERROR }] });
	}, 60_000);

	test("a name close to nothing gets no suggestion", async () => {
		const dir = project({ "odd.ts": returning("frobnicate", "undefined") });
		const { errors } = await loadHooks(["odd.ts"], dir);
		expect(errors).toEqual([{ path: "odd.ts", error: 'Failed to load hook: Unknown event "frobnicate"' }]);
	}, 60_000);

	for (const cli of clis)
		test(`${cli.name}: emit tool_call with the misspelt hook loaded is blocked (exit 2)`, async () => {
			const dir = project({ "typo.ts": TYPO });
			const run = await runCli(cli, ["emit", "tool_call", "--no-discovery", "--hook", "typo.ts"], dir, {
				stdin: JSON.stringify({ toolName: "bash", input: { command: "ls" } }),
			});
			expect(run.code).toBe(2);
			const printed = JSON.parse(run.stdout);
			expect(printed.result.block).toBe(true);
			expect(printed.loadErrors).toEqual([{ path: join(dir, "typo.ts"), error: TYPO_ERROR }]);
			expect(run.stderr).toContain('did you mean "tool_call"?');
		}, 60_000);
});

describe("loading, exactly", () => {
	test("a default export that is not a function: exactly `Hook must export a default function`", async () => {
		const dir = project({ "number.ts": "export default 42;\n", "none.ts": "export const x = 1;\n" });
		const { errors } = await loadHooks(["number.ts", "none.ts"], dir);
		expect(errors).toEqual([
			{ path: "number.ts", error: "Hook must export a default function" },
			{ path: "none.ts", error: "Hook must export a default function" },
		]);
	}, 60_000);

	test("an absolute path keeps its resolvedPath as given (/./ and .. stay) and loads", async () => {
		const dir = project({ "hook.ts": returning("tool_call", "undefined"), "sub/.keep": "" });
		const [dotted, parent] = [`${dir}/./hook.ts`, `${dir}/sub/../hook.ts`];
		const { hooks, errors } = await loadHooks([dotted, parent], "/");
		expect(errors).toEqual([]);
		expect(hooks.map((h) => [h.path, h.resolvedPath, h.handlers.has("tool_call")])).toEqual([
			[dotted, dotted, true],
			[parent, parent, true],
		]);
	}, 60_000);

	test("before_agent_start: a handler setting event.prompt is not seen by the next", async () => {
		const dir = project({
			"first.ts": `export default (pi) => pi.on("before_agent_start", (event) => { event.prompt = "changed"; });\n`,
			"second.ts": `export default function (pi) {
	pi.on("before_agent_start", (event) => { event.prompt = "changed again"; });
	pi.on("before_agent_start", (event) => ({ message: { customType: "seen", content: event.prompt, display: false } }));
}
`,
		});
		const { hooks } = await loadHooks(["first.ts", "second.ts"], dir);
		const result = await new HookRunner(hooks, dir).emitBeforeAgentStart("original");
		expect(result?.message?.content).toBe("original");
	}, 60_000);
});

for (const cli of clis)
	describe(`${cli.name}, exactly`, () => {
		test("check reports a non-function default export as exactly `Hook must export a default function`", async () => {
			const dir = project({ "number.ts": "export default 42;\n" });
			const run = await runCli(cli, ["check", "--json", "--no-discovery", "--hook", "number.ts"], dir);
			expect(run.code).toBe(1);
			expect(JSON.parse(run.stdout).loadErrors).toEqual([{ path: join(dir, "number.ts"), error: "Hook must export a default function" }]);
		}, 60_000);

		test("emit before_agent_start: the second hook sees the prompt as sent, not as the first one changed it", async () => {
			const dir = project({
				"first.ts": `export default (pi) => pi.on("before_agent_start", (event) => { event.prompt = "changed"; });\n`,
				"second.ts": `export default (pi) => pi.on("before_agent_start", (event) => ({ message: { customType: "seen", content: event.prompt, display: false } }));\n`,
			});
			const run = await runCli(cli, ["emit", "before_agent_start", "--no-discovery", "--hook", "first.ts", "--hook", "second.ts"], dir, {
				stdin: JSON.stringify({ prompt: "original" }),
			});
			expect(run.code).toBe(0);
			expect(JSON.parse(run.stdout).result.message.content).toBe("original");
		}, 60_000);
	});

describe("ToolBlockedError", () => {
	test("is the same class from xcsh-hooks and xcsh-hooks/hooks", () => {
		expect(hooksEntry.ToolBlockedError).toBe(root.ToolBlockedError);
	}, 60_000);

	test("a {block: true, reason} is thrown as ToolBlockedError with code TOOL_BLOCKED, the reason and it as message", async () => {
		const { wrapper, runs } = await wrapFactory((pi) => pi.on("tool_call", () => ({ block: true, reason: "frozen week" })));
		const error = await wrapper.execute("c1", { target: "prod" }).catch((e) => e);
		expect(error).toBeInstanceOf(ToolBlockedError);
		expect(error).toBeInstanceOf(Error);
		expect([error.code, error.reason, error.message]).toEqual(["TOOL_BLOCKED", "frozen week", "frozen week"]);
		expect(runs).toEqual([]);
	}, 60_000);

	test("a {block: true} without a reason reads `Tool execution was blocked by a hook`", async () => {
		const { wrapper } = await wrapFactory((pi) => pi.on("tool_call", () => ({ block: true })));
		const error = await wrapper.execute("c1", { target: "prod" }).catch((e) => e);
		expect(error).toBeInstanceOf(ToolBlockedError);
		expect(error.message).toBe("Tool execution was blocked by a hook");
	}, 60_000);

	test("a handler's own error is rethrown as is, not wrapped, and the tool does not run", async () => {
		class PolicyError extends Error {}
		const thrown = new PolicyError("no deploys on Friday");
		const { wrapper, runs } = await wrapFactory((pi) =>
			pi.on("tool_call", () => {
				throw thrown;
			}),
		);
		await expect(wrapper.execute("c1", { target: "prod" })).rejects.toBe(thrown);
		expect(runs).toEqual([]);
	}, 60_000);
});
