import { expect, test } from "bun:test";
import { createNoOpUIContext } from "../../src/ui/index.ts";

test("questions resolve 'no answer'", async () => {
	const ui = createNoOpUIContext();
	expect(await ui.select("Pick", ["a", "b"])).toBeUndefined();
	expect(await ui.confirm("Sure?", "really")).toBe(false);
	expect(await ui.input("Name", "placeholder")).toBeUndefined();
	expect(await ui.editor("Edit", "prefill")).toBeUndefined();
});

test("custom resolves undefined without calling the factory", async () => {
	const ui = createNoOpUIContext();
	let called = false;
	const result = await ui.custom<number>((_theme, done) => {
		called = true;
		done(42);
	});
	expect(result).toBeUndefined();
	expect(called).toBe(false);
});

test("output and editor calls do nothing; editor text stays empty", () => {
	const ui = createNoOpUIContext();
	expect(ui.notify("hello", "error")).toBeUndefined();
	expect(ui.setStatus("k", "v")).toBeUndefined();
	ui.setEditorText("draft");
	expect(ui.getEditorText()).toBe("");
});

test("theme is a plain identity theme, never undefined", () => {
	const ui = createNoOpUIContext();
	expect(ui.theme).toBeDefined();
	expect(ui.theme.fg("error", "x")).toBe("x");
	expect(ui.theme.bold("x")).toBe("x");
	expect(ui.theme.symbols.success).toBe("✓");
	expect(Object.getOwnPropertyDescriptor(ui, "theme")?.get).toBeFunction();
});
