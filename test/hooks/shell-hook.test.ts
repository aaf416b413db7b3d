import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { join } from "node:path";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import type { AgentTool, HookError } from "../../src/hooks/types.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

function tool(name: string, runs: string[]): AgentTool {
	return {
		name,
		label: name,
		description: name,
		parameters: Type.Object({}),
		async execute(_id, params) {
			runs.push(name);
			return { content: [{ type: "text", text: `${name} output: ${JSON.stringify(params)}` }] };
		},
	};
}

async function setup(files: Record<string, string>, options: { timeoutMs?: number } = {}) {
	const dir = tempDir();
	writeFiles(dir, files);
	const { hooks, errors } = await loadHooks(Object.keys(files), dir, { shellTimeoutMs: options.timeoutMs });
	const runner = new HookRunner(hooks, dir);
	const reported: HookError[] = [];
	runner.onError((e) => reported.push(e));
	const runs: string[] = [];
	const wrapped = (name: string) => new HookToolWrapper(tool(name, runs), runner);
	return { dir, errors, runner, reported, runs, wrapped };
}

describe("shell hooks", () => {
	test("pre exit 0 allows; the event arrives on stdin with XCSH_* variables", async () => {
		const { dir, runs, wrapped } = await setup({
			"pre/bash.sh": `#!/bin/sh\ncat > "$(dirname "$0")/../seen.json"\necho "$XCSH_HOOK_EVENT $XCSH_TOOL_NAME $XCSH_PROJECT_DIR" > "$(dirname "$0")/../env.txt"\nexit 0\n`,
		});
		await wrapped("bash").execute("c1", { command: "ls" });
		expect(runs).toEqual(["bash"]);
		expect(await Bun.file(join(dir, "seen.json")).json()).toEqual({
			type: "tool_call",
			toolName: "bash",
			toolCallId: "c1",
			input: { command: "ls" },
		});
		expect((await Bun.file(join(dir, "env.txt")).text()).trim()).toBe(`tool_call bash ${dir}`);
	}, 60_000);

	test("pre exit 0 with a JSON {block, reason} on stdout blocks", async () => {
		const { runs, wrapped } = await setup({
			"pre/bash.sh": `#!/bin/sh\necho '{"block": true, "reason": "json says no"}'\n`,
		});
		await expect(wrapped("bash").execute("c1", {})).rejects.toThrow("json says no");
		expect(runs).toEqual([]);
	}, 60_000);

	test("pre exit 2 blocks with the trimmed stderr as the reason", async () => {
		const { runs, wrapped } = await setup({ "pre/bash.sh": `#!/bin/sh\necho "  no rm here  " >&2\nexit 2\n` });
		await expect(wrapped("bash").execute("c1", {})).rejects.toThrow(/^no rm here$/);
		expect(runs).toEqual([]);
	}, 60_000);

	test("pre with any other exit code fails closed: the tool is blocked", async () => {
		const { runs, wrapped } = await setup({ "pre/bash.sh": `#!/bin/sh\necho "crashed" >&2\nexit 1\n` });
		await expect(wrapped("bash").execute("c1", {})).rejects.toThrow("exited with code 1: crashed");
		expect(runs).toEqual([]);
	}, 60_000);

	test("pre that times out fails closed", async () => {
		const { runs, wrapped } = await setup({ "pre/bash.sh": `#!/bin/sh\nsleep 20\n` }, { timeoutMs: 100 });
		await expect(wrapped("bash").execute("c1", {})).rejects.toThrow("timed out after 100 ms");
		expect(runs).toEqual([]);
	}, 60_000);

	test("a pre hook named for one tool does not fire for another; * fires for all", async () => {
		const { dir, runs, wrapped } = await setup({
			"pre/bash.sh": `#!/bin/sh\necho bash >> "$(dirname "$0")/../fired.txt"\nexit 2\n`,
			"pre/*.sh": `#!/bin/sh\necho star >> "$(dirname "$0")/../fired.txt"\n`,
		});
		await wrapped("read").execute("c1", {});
		expect(runs).toEqual(["read"]);
		expect((await Bun.file(join(dir, "fired.txt")).text()).trim()).toBe("star");
		await expect(wrapped("bash").execute("c2", {})).rejects.toThrow();
	}, 60_000);

	test("post hook rewrites content through JSON on stdout", async () => {
		const { wrapped } = await setup({
			"post/bash.sh": `#!/bin/sh\nexec sed -n 's/.*"text":"\\([^"]*\\)".*/{"content":[{"type":"text","text":"post saw: \\1"}]}/p'\n`,
		});
		const result = await wrapped("bash").execute("c1", {});
		expect(result.content).toEqual([{ type: "text", text: "post saw: bash output: {}" }]);
	}, 60_000);

	test("post failures go to onError and the tool's result stands", async () => {
		const { wrapped, reported } = await setup({ "post/bash.sh": `#!/bin/sh\nexit 3\n` });
		const result = await wrapped("bash").execute("c1", {});
		expect(result.content).toEqual([{ type: "text", text: "bash output: {}" }]);
		expect(reported).toHaveLength(1);
		expect(reported[0]?.event).toBe("tool_result");
		expect(reported[0]?.error).toContain("exited with code 3");
	}, 60_000);

	test("an invalid JSON result names the field and fails closed for pre", async () => {
		const { wrapped } = await setup({ "pre/bash.sh": `#!/bin/sh\necho '{"block": "yes"}'\n` });
		await expect(wrapped("bash").execute("c1", {})).rejects.toThrow("block: expected boolean");
	}, 60_000);

	test("a file that is neither a module nor executable is a load error naming it and chmod +x", async () => {
		const dir = tempDir();
		writeFiles(dir, { "pre/notes.txt": "hello" });
		const { hooks, errors } = await loadHooks(["pre/notes.txt"], dir);
		expect(hooks).toEqual([]);
		expect(errors[0]?.error).toContain(join(dir, "pre/notes.txt"));
		expect(errors[0]?.error).toContain("chmod +x");
	}, 60_000);

	test("an executable outside pre/ and post/ without a spec says where shell hooks live", async () => {
		const dir = tempDir();
		writeFiles(dir, { "tools/check.sh": "#!/bin/sh\n" });
		const { errors } = await loadHooks(["tools/check.sh"], dir);
		expect(errors[0]?.error).toContain("pre/ or post/");
	}, 60_000);
});
