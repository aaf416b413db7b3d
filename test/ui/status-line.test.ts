import { describe, expect, test } from "bun:test";
import { createStatusLine, renderStatusLine, sanitizeStatusText, truncateToWidth, visibleWidth } from "../../src/ui/index.ts";

const RED = "\x1b[31m";
const RESET = "\x1b[0m";

describe("sanitizeStatusText", () => {
	test("control characters become spaces, runs collapse, ends are trimmed", () => {
		expect(sanitizeStatusText("  a\r\nb\t\tc \x00d\x07e\x7ff\x85g\u2028h  ")).toBe("a b c d e f g h");
	});

	test("SGR sequences survive intact", () => {
		expect(sanitizeStatusText(`${RED}red\x1b[1;38;5;208m!\x1b[38:2::1:2:3m${RESET}`)).toBe(
			`${RED}red\x1b[1;38;5;208m!\x1b[38:2::1:2:3m${RESET}`,
		);
		expect(sanitizeStatusText("\x1b[m")).toBe("\x1b[m");
	});

	test("other escape sequences are removed whole", () => {
		expect(sanitizeStatusText("a\x1b[2Kb\x1b[10;5Hc\x1b[?25ld")).toBe("abcd"); // erase, cursor, mode
		expect(sanitizeStatusText("\x1b]0;title\x07x\x1b]8;;http://e.x\x1b\\link\x1b]8;;\x1b\\")).toBe("xlink"); // OSC
		expect(sanitizeStatusText("a\x1bcb\x1b7c\x1b(Bd")).toBe("abcd"); // reset, save cursor, charset
		expect(sanitizeStatusText("x\x1bPq#0;2;0;0;0\x1b\\y")).toBe("xy"); // DCS
	});

	test("a lone or broken escape does not swallow the rest of the text", () => {
		expect(sanitizeStatusText("end\x1b")).toBe("end");
		expect(sanitizeStatusText("a\x1b\nb")).toBe("a b");
		expect(sanitizeStatusText("a\x1b]unterminated title")).toBe("aunterminated title");
	});

	test("spaces collapse across SGR and are trimmed next to SGR at the ends", () => {
		expect(sanitizeStatusText(`a \n${RED} b`)).toBe(`a ${RED}b`);
		expect(sanitizeStatusText(`  ${RED}  red  ${RESET}  `)).toBe(`${RED}red${RESET}`);
	});

	test("wide characters and other spaces are left alone", () => {
		expect(sanitizeStatusText("日本語\u00a0x")).toBe("日本語\u00a0x");
	});
});

describe("visibleWidth", () => {
	test("SGR counts zero, wide characters and emoji count two", () => {
		expect(visibleWidth(`${RED}red${RESET}`)).toBe(3);
		expect(visibleWidth("日本語")).toBe(6);
		expect(visibleWidth("👍")).toBe(2);
		expect(visibleWidth("👨‍👩‍👧")).toBe(2);
		expect(visibleWidth("e\u0301")).toBe(1);
		expect(visibleWidth("…")).toBe(1);
	});
});

describe("truncateToWidth", () => {
	test("text that fits is returned unchanged", () => {
		expect(truncateToWidth("hello", 5)).toBe("hello");
		expect(truncateToWidth(`${RED}hello${RESET}`, 5)).toBe(`${RED}hello${RESET}`);
	});

	test("cut text plus ellipsis fills the width exactly", () => {
		expect(truncateToWidth("hello world", 5)).toBe("hell…");
		expect(truncateToWidth("hello world", 8, "...")).toBe("hello...");
		for (let w = 1; w <= 11; w++) expect(visibleWidth(truncateToWidth("hello world!", w))).toBe(w);
	});

	test("wide characters are never split across the limit", () => {
		expect(truncateToWidth("日本語", 5)).toBe("日本…");
		expect(truncateToWidth("日本語", 4)).toBe("日…"); // 2 + 1: "本" would overflow
		expect(truncateToWidth("a日本語", 4)).toBe("a日…");
		expect(truncateToWidth("👨‍👩‍👧👨‍👩‍👧", 3)).toBe("👨‍👩‍👧…");
		expect(truncateToWidth("e\u0301e\u0301e\u0301", 2)).toBe("e\u0301…");
		for (let w = 1; w <= 7; w++) expect(visibleWidth(truncateToWidth("日本語x", w))).toBeLessThanOrEqual(w);
	});

	test("SGR is kept, costs no width, and a reset comes before the ellipsis", () => {
		expect(truncateToWidth(`${RED}red text${RESET}`, 4)).toBe(`${RED}red${RESET}…`);
		expect(truncateToWidth(`ab${RED}cdef`, 3)).toBe(`ab${RESET}…`); // SGR before cut-off text is dropped
		expect(truncateToWidth(`abcdef${RED}x`, 3)).toBe(`ab${RESET}…`);
		expect(visibleWidth(truncateToWidth(`${RED}日本語${RESET}`, 5))).toBe(5);
	});

	test("tiny widths", () => {
		expect(truncateToWidth("hello", 0)).toBe("");
		expect(truncateToWidth("hello", -3)).toBe("");
		expect(truncateToWidth("hello", Number.NaN)).toBe("");
		expect(truncateToWidth("hello", 1)).toBe("…");
		expect(truncateToWidth("hello", 2, "...")).toBe("..");
	});
});

describe("renderStatusLine", () => {
	test("sorted by key in code-unit order, sanitized, empty values skipped, one space between", () => {
		const line = renderStatusLine({ b: "two\nlines", a: "first", B: "upper", c: " \t ", "a-": "", d: RED }, 80);
		expect(line).toBe("upper first two lines");
	});

	test("accepts a Map", () => {
		expect(
			renderStatusLine(
				new Map([
					["z", "last"],
					["m", "mid"],
				]),
				80,
			),
		).toBe("mid last");
	});

	test("a value that leaves colour on is reset before the next one", () => {
		expect(renderStatusLine({ a: `${RED}red`, b: "plain", c: `${RED}ok${RESET}` }, 80)).toBe(`${RED}red${RESET} plain ${RED}ok${RESET}`);
	});

	test("truncated to the width in visible columns", () => {
		const line = renderStatusLine({ a: `${RED}error${RESET}`, b: "日本語のテキスト" }, 10);
		expect(line).toBe(`${RED}error${RESET} 日${RESET}…`);
		expect(visibleWidth(line)).toBe(9);
	});
});

describe("createStatusLine", () => {
	test("set stores per key, undefined clears the key", () => {
		const status = createStatusLine();
		status.set("lint", "ok");
		status.set("git", "main");
		status.set("lint", "3 warnings");
		expect(status.entries()).toEqual([
			["git", "main"],
			["lint", "3 warnings"],
		]);
		expect(status.render(80)).toBe("main 3 warnings");
		status.set("git", undefined);
		expect(status.entries()).toEqual([["lint", "3 warnings"]]);
		expect(status.render(8)).toBe("3 warni…");
		status.set("lint", undefined);
		expect(status.render(80)).toBe("");
	});
});
