/**
 * What a server checks between calls (src/serve/clean-process.ts): a process a hook changed serves no
 * more calls. The check compares the usual case in place and looks key by key only on a difference;
 * these pin that every kind of difference is still named: a variable's value changed with its key
 * set as it was, a variable removed, a global added in place of one removed (the same count).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { processSnapshot } from "../../src/serve/clean-process.ts";

const global = globalThis as Record<string, unknown>;
const undo: Array<() => void> = [];
afterEach(() => {
	for (const step of undo.splice(0).reverse()) step();
});

/** Sets (or removes, with `undefined`) a variable until the test ends. */
function setVariable(name: string, value: string | undefined): void {
	const before = process.env[name];
	undo.push(() => {
		if (before === undefined) delete process.env[name];
		else process.env[name] = before;
	});
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}

describe("a server's check between calls", () => {
	test("nothing changed: nothing named", () => {
		expect(processSnapshot()()).toBeUndefined();
	});

	test("a variable's value changed, its keys as they were: named", () => {
		setVariable("XCSH_CLEAN_A", "1");
		const stained = processSnapshot();
		process.env.XCSH_CLEAN_A = "2";
		expect(stained()).toBe("a hook changed process.env (XCSH_CLEAN_A)");
	});

	test("a variable removed: named", () => {
		setVariable("XCSH_CLEAN_B", "1");
		const stained = processSnapshot();
		delete process.env.XCSH_CLEAN_B;
		expect(stained()).toBe("a hook changed process.env (XCSH_CLEAN_B)");
	});

	test("a global added in place of one removed (the same count): named", () => {
		global.xcshCleanOld = 1;
		undo.push(() => delete global.xcshCleanOld);
		const stained = processSnapshot();
		delete global.xcshCleanOld;
		global.xcshCleanNew = 1;
		undo.push(() => delete global.xcshCleanNew);
		expect(stained()).toBe("a hook added global(s) xcshCleanNew");
	});
});
