import { describe, expect, test } from "bun:test";
import { createAnsiTheme, createPlainTheme, type ThemeColor } from "../../src/ui/index.ts";

const COLORS: ThemeColor[] = ["accent", "muted", "dim", "text", "success", "error", "warning", "info"];

describe("createPlainTheme", () => {
	const theme = createPlainTheme();

	test("every style returns the text unchanged", () => {
		for (const color of COLORS) {
			expect(theme.fg(color, "héllo 日本")).toBe("héllo 日本");
			expect(theme.bg(color, "x y")).toBe("x y");
		}
		for (const style of [theme.bold, theme.italic, theme.underline, theme.dim]) expect(style("a\tb")).toBe("a\tb");
	});

	test("has the message symbols", () => {
		expect(theme.symbols).toEqual({ success: "✓", error: "✗", warning: "!", info: "i", bullet: "•" });
	});
});

describe("createAnsiTheme", () => {
	const theme = createAnsiTheme();

	test("each span opens its SGR and ends with that attribute's reset", () => {
		expect(theme.fg("error", "no")).toBe("\x1b[31mno\x1b[39m");
		expect(theme.fg("success", "ok")).toBe("\x1b[32mok\x1b[39m");
		expect(theme.bg("warning", "w")).toBe("\x1b[43mw\x1b[49m");
		expect(theme.bg("text", "t")).toBe("\x1b[49mt\x1b[49m");
		expect(theme.bold("b")).toBe("\x1b[1mb\x1b[22m");
		expect(theme.dim("d")).toBe("\x1b[2md\x1b[22m");
		expect(theme.italic("i")).toBe("\x1b[3mi\x1b[23m");
		expect(theme.underline("u")).toBe("\x1b[4mu\x1b[24m");
	});

	test("every colour yields one well-formed SGR span around the text", () => {
		for (const color of COLORS) {
			expect(theme.fg(color, "z")).toMatch(/^\x1b\[\d+mz\x1b\[39m$/);
			expect(theme.bg(color, "z")).toMatch(/^\x1b\[\d+mz\x1b\[49m$/);
		}
	});

	test("an unknown colour from a JavaScript hook leaves the text unstyled", () => {
		expect(theme.fg("purple" as ThemeColor, "p")).toBe("p");
		expect(theme.bg("toString" as ThemeColor, "p")).toBe("p");
	});
});
