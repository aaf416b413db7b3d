import { describe, expect, test } from "bun:test";
import type { HookAPI, HookContext } from "../../src/index.ts";
import { createHookHarness, createScriptedUIContext } from "../../src/testing/index.ts";

/** A hook that asks every kind of question on `agent_start` and reports the answers as an entry. */
function askEverything(pi: HookAPI) {
	pi.on("agent_start", async (_event, ctx: HookContext) => {
		pi.appendEntry("answers", {
			hasUI: ctx.hasUI,
			confirm: await ctx.ui.confirm("Proceed?", "rm -rf build"),
			select: await ctx.ui.select("Pick", ["a", "b"]),
			input: await ctx.ui.input("Name", "anonymous"),
			editor: await ctx.ui.editor("Edit", "draft"),
			custom: await ctx.ui.custom(() => "ignored"),
		});
	});
}

const answers = async (h: Awaited<ReturnType<typeof createHookHarness>>) => {
	await h.emit({ type: "agent_start" });
	return h.entries.at(-1)?.data;
};

describe("scripted UI through the harness", () => {
	test("without answers: the no-op answers, and hasUI false", async () => {
		const h = await createHookHarness(askEverything);
		expect(await answers(h)).toEqual({
			hasUI: false,
			confirm: false,
			select: undefined,
			input: undefined,
			editor: undefined,
			custom: undefined,
		});
		expect(h.prompts.map((p) => [p.kind, p.answer])).toEqual([
			["confirm", false],
			["select", undefined],
			["input", undefined],
			["editor", undefined],
		]);
	});

	test("fixed answers; hasUI defaults to true when answers are given", async () => {
		const h = await createHookHarness(askEverything, { ui: { confirm: true, select: "b", input: "Ada", editor: "edited" } });
		expect(await answers(h)).toEqual({ hasUI: true, confirm: true, select: "b", input: "Ada", editor: "edited", custom: undefined });
		expect(h.prompts).toEqual([
			{ kind: "confirm", title: "Proceed?", message: "rm -rf build", answer: true },
			{ kind: "select", title: "Pick", options: ["a", "b"], answer: "b" },
			{ kind: "input", title: "Name", placeholder: "anonymous", answer: "Ada" },
			{ kind: "editor", title: "Edit", prefill: "draft", answer: "edited" },
		]);
	});

	test("answer functions get the prompt's arguments; hasUI can be forced off", async () => {
		const h = await createHookHarness(askEverything, {
			hasUI: false,
			ui: {
				confirm: async (_title, message) => message.includes("build"),
				select: (_title, options) => options.at(-1),
				input: (_title, placeholder) => placeholder?.toUpperCase(),
				editor: (_title, prefill) => `${prefill}!`,
			},
		});
		expect(await answers(h)).toEqual({ hasUI: false, confirm: true, select: "b", input: "ANONYMOUS", editor: "draft!", custom: undefined });
	});

	test("a scripted select answer that is not an option fails the handler loudly", async () => {
		const h = await createHookHarness(askEverything, { ui: { select: "c" } });
		await h.emit({ type: "agent_start" });
		expect(h.entries).toEqual([]);
		expect(h.errors[0]?.error).toBe('Scripted select answer "c" for "Pick" is not one of: a, b');
	});
});

test("createScriptedUIContext records notify, status and editor text, and has a plain theme", () => {
	const { ui, recording } = createScriptedUIContext();
	ui.notify("hi");
	ui.setStatus("k", "v");
	ui.setStatus("gone", "x");
	ui.setStatus("gone", undefined);
	ui.setEditorText("text");
	expect(recording.notifications).toEqual([{ message: "hi", type: "info" }]);
	expect([...recording.statuses]).toEqual([["k", "v"]]);
	expect(ui.getEditorText()).toBe("text");
	expect(ui.theme.bold("x")).toBe("x");
});
