import { describe, expect, test } from "bun:test";
import { CLEAR_LINE, createPlainTheme, createTerminalUIContext, type PromptFn, type TerminalUIContextOptions } from "../../src/ui/index.ts";

const CANCEL = Symbol.for("cancel");

type Call = { message: string; options: Parameters<PromptFn>[1] };

/** A terminal UI whose prompt answers from `answers` in order and whose output is captured. */
function setup(answers: unknown[] = [], extra: Partial<TerminalUIContextOptions> = {}) {
	const calls: Call[] = [];
	let out = "";
	const ui = createTerminalUIContext({
		write: (s) => {
			out += s;
		},
		width: () => 20,
		prompt: async (message, options) => {
			calls.push({ message, options });
			return answers.shift();
		},
		theme: createPlainTheme(),
		...extra,
	});
	return { ui, calls, output: () => out };
}

describe("prompts", () => {
	test("confirm asks title and message, defaults to no, answers the user's choice", async () => {
		const { ui, calls } = setup([true, false]);
		expect(await ui.confirm("Run rm -rf?", "It deletes build/")).toBe(true);
		expect(await ui.confirm("Again?", "")).toBe(false);
		expect(calls[0]).toEqual({
			message: "Run rm -rf?\nIt deletes build/",
			options: { type: "confirm", initial: false, cancel: "symbol" },
		});
		expect(calls[1]?.message).toBe("Again?");
	}, 60_000);

	test("select offers the options and answers the chosen one", async () => {
		const { ui, calls } = setup(["beta"]);
		expect(await ui.select("Pick", ["alpha", "beta"])).toBe("beta");
		expect(calls[0]).toEqual({
			message: "Pick",
			options: { type: "select", options: ["alpha", "beta"], cancel: "symbol" },
		});
	}, 60_000);

	test("select with no options answers undefined without prompting", async () => {
		const { ui, calls } = setup(["x"]);
		expect(await ui.select("Pick", [])).toBeUndefined();
		expect(calls).toHaveLength(0);
	}, 60_000);

	test("input passes the placeholder and answers text, empty text included", async () => {
		const { ui, calls } = setup(["feat: add ui", ""]);
		expect(await ui.input("Commit message", "type here")).toBe("feat: add ui");
		expect(await ui.input("Commit message")).toBe("");
		expect(calls[0]?.options).toEqual({ type: "text", placeholder: "type here", default: "", cancel: "symbol" });
	}, 60_000);

	test("editor shows line breaks as ↵ and restores them", async () => {
		const { ui, calls } = setup(["one↵two↵three"]);
		expect(await ui.editor("Edit", "one\r\ntwo")).toBe("one\ntwo\nthree");
		expect(calls[0]?.options).toMatchObject({ type: "text", initial: "one↵two" });
	}, 60_000);

	test("a cancelled prompt answers undefined, or false for confirm", async () => {
		const { ui } = setup([CANCEL, CANCEL, CANCEL, CANCEL, undefined, null]);
		expect(await ui.confirm("Sure?", "")).toBe(false);
		expect(await ui.select("Pick", ["a"])).toBeUndefined();
		expect(await ui.input("Name")).toBeUndefined();
		expect(await ui.editor("Edit", "x")).toBeUndefined();
		expect(await ui.input("Name")).toBeUndefined();
		expect(await ui.select("Pick", ["a"])).toBeUndefined();
	}, 60_000);

	test("concurrent prompts are asked one at a time", async () => {
		let open = 0;
		let most = 0;
		const ui = createTerminalUIContext({
			write: () => {},
			prompt: async (message) => {
				most = Math.max(most, ++open);
				await Bun.sleep(5);
				open--;
				return message;
			},
		});
		expect(await Promise.all([ui.input("a"), ui.input("b"), ui.input("c")])).toEqual(["a", "b", "c"]);
		expect(most).toBe(1);
	}, 60_000);

	test("a failing prompt rejects that call only", async () => {
		const { ui } = setup();
		const failing = createTerminalUIContext({ write: () => {}, prompt: async () => Promise.reject(new Error("no tty")) });
		await expect(failing.input("x")).rejects.toThrow("no tty");
		expect(await ui.confirm("still works?", "")).toBe(false);
	}, 60_000);
});

describe("notify and status", () => {
	test("notify writes one line with the type's symbol", () => {
		const { ui, output } = setup();
		ui.notify("saved");
		ui.notify("careful\nnow", "warning");
		ui.notify("failed", "error");
		expect(output()).toBe("i saved\n! careful now\n✗ failed\n");
	}, 60_000);

	test("default theme: ANSI colours the symbol, NO_COLOR makes it plain", () => {
		const saved = process.env.NO_COLOR;
		try {
			let out = "";
			delete process.env.NO_COLOR;
			createTerminalUIContext({ write: (s) => void (out += s) }).notify("bad", "error");
			process.env.NO_COLOR = "1";
			createTerminalUIContext({ write: (s) => void (out += s) }).notify("bad", "error");
			expect(out).toBe("\x1b[31m✗\x1b[39m bad\n✗ bad\n");
		} finally {
			if (saved === undefined) delete process.env.NO_COLOR;
			else process.env.NO_COLOR = saved;
		}
	}, 60_000);

	test("setStatus redraws the sorted, truncated line in place; clearing the last key erases it", () => {
		const { ui, output } = setup();
		ui.setStatus("b", "build ok");
		ui.setStatus("a", "lint\t3 warnings");
		ui.setStatus("a", undefined);
		ui.setStatus("b", undefined);
		ui.setStatus("c", undefined); // nothing shown, nothing to erase
		expect(output()).toBe(`${CLEAR_LINE}build ok${CLEAR_LINE}lint 3 warnings bui…${CLEAR_LINE}build ok${CLEAR_LINE}`);
	}, 60_000);

	test("notifications go above the status line", () => {
		const { ui, output } = setup();
		ui.setStatus("k", "busy");
		ui.notify("done");
		expect(output()).toBe(`${CLEAR_LINE}busy${CLEAR_LINE}i done\n${CLEAR_LINE}busy`);
	}, 60_000);

	test("during a prompt the status line is lifted and updates wait until it closes", async () => {
		let release: (answer: unknown) => void = () => {};
		let out = "";
		const ui = createTerminalUIContext({
			write: (s) => void (out += s),
			width: () => 20,
			prompt: () => new Promise((resolve) => (release = resolve)),
			theme: createPlainTheme(),
		});
		ui.setStatus("k", "one");
		const answer = ui.input("Name");
		await Bun.sleep(0);
		ui.setStatus("k", "two");
		ui.notify("meanwhile");
		expect(out).toBe(`${CLEAR_LINE}one${CLEAR_LINE}`);
		release("Ada");
		expect(await answer).toBe("Ada");
		expect(out).toBe(`${CLEAR_LINE}one${CLEAR_LINE}i meanwhile\n${CLEAR_LINE}two`);
	}, 60_000);
});

describe("custom and editor text", () => {
	test("custom gets the theme and resolves with the first value given to done", async () => {
		const { ui } = setup();
		const result = await ui.custom<string>((theme, done) => {
			expect(theme).toBe(ui.theme);
			setTimeout(() => {
				done("picked");
				done("ignored");
			}, 1);
		});
		expect(result).toBe("picked");
	}, 60_000);

	test("custom rejects when the factory throws or rejects", async () => {
		const { ui } = setup();
		const throws = () => {
			throw new Error("boom");
		};
		const rejects = async () => {
			throw new Error("later");
		};
		await expect(ui.custom(throws)).rejects.toThrow("boom");
		await expect(ui.custom(rejects)).rejects.toThrow("later");
	}, 60_000);

	test("editor text is kept", () => {
		const { ui } = setup();
		expect(ui.getEditorText()).toBe("");
		ui.setEditorText("draft\nmessage");
		expect(ui.getEditorText()).toBe("draft\nmessage");
	}, 60_000);
});

/** Run `code` in a fresh Bun process with `ui` bound to the UI module; its exit code, stdout and stderr. */
async function runWithUI(code: string, stdin: Blob = new Blob([])) {
	const entry = JSON.stringify(`${import.meta.dir}/../../src/ui/index.ts`);
	const proc = Bun.spawn([process.execPath, "-e", `const ui = await import(${entry});\n${code}`], {
		stdin,
		timeout: 10_000, // a hung prompt must not outlive the test
		stdout: "pipe",
		stderr: "pipe",
		env: { ...process.env, NO_COLOR: "1" },
	});
	const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()];
	return { code: await proc.exited, stdout, stderr };
}

test("importing the UI does not load consola", async () => {
	const run = await runWithUI(`console.log(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes("consola"))));`);
	expect(run).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
}, 60_000);

test("by default notify and status go to stderr, 80 columns wide when it is not a terminal", async () => {
	const run = await runWithUI(`const t = ui.createTerminalUIContext();
		t.notify("hello");
		t.setStatus("k", "x".repeat(100));`);
	expect(run.code).toBe(0);
	expect(run.stdout).toBe("");
	expect(run.stderr).toBe(`i hello\n${CLEAR_LINE}${"x".repeat(79)}…`);
}, 60_000);

test("the default text prompt reads a line", async () => {
	const run = await runWithUI(
		`console.error(JSON.stringify(await ui.createTerminalUIContext().input("Name", "e.g. Ada")));`,
		new Blob(["Ada\n"]),
	);
	expect(run.code).toBe(0);
	expect(run.stderr).toBe('"Ada"\n');
	expect(run.stdout).toContain("Name (e.g. Ada)\n› ");
}, 60_000);

test("the default text prompt answers undefined, without hanging, once input has ended", async () => {
	const run = await runWithUI(
		`const t = ui.createTerminalUIContext();
		const answers = [await t.input("Name"), await t.input("Again")];
		console.error(JSON.stringify(answers.map((a) => a ?? null)));`,
		Bun.file("/dev/null"),
	);
	expect(run.code).toBe(0);
	expect(run.stderr).toBe("[null,null]\n");
}, 60_000);
