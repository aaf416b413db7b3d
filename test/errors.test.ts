/**
 * One error type: everything xcsh-hooks throws is an `XcshError` with a stable code (src/errors.ts),
 * and only `ToolBlockedError` subclasses it. Checked on the sources, so a new `class … extends Error`
 * or a bare `throw new Error(` cannot creep back in.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { isXcshError, ToolBlockedError, XcshError } from "../src/errors.ts";

const SRC = join(import.meta.dir, "..", "src");

function sources(dir = SRC): Array<{ file: string; text: string }> {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return name.endsWith(".ts") ? [{ file: relative(SRC, path), text: readFileSync(path, "utf8") }] : [];
	});
}

/** Text that is JavaScript handed to another process as a string (it cannot import this package). */
const GENERATED_SOURCE = new Set(["cli/_test-gate.ts"]);

test("no error class but XcshError and its one subclass, ToolBlockedError", () => {
	const classes = sources().flatMap(({ file, text }) =>
		[...text.matchAll(/class\s+(\w+)\s+extends\s+(\w*Error)\b/g)].map((m) => `${file}: ${m[1]} extends ${m[2]}`),
	);
	expect(classes).toEqual(["errors.ts: XcshError extends Error", "errors.ts: ToolBlockedError extends XcshError"]);
});

test("no bare `throw new Error(`: every throw carries a code", () => {
	const bare = sources()
		.filter(({ file }) => !GENERATED_SOURCE.has(file))
		.flatMap(({ file, text }) =>
			text
				.split("\n")
				.flatMap((line, i) =>
					/\bnew Error\((?!\))/.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
				),
		);
	expect(bare).toEqual([]);
});

test("an XcshError keeps its code, message, file, detail, exit code and cause; isXcshError filters by code", () => {
	const cause = new RangeError("underneath");
	const error = new XcshError("INSTALL_PARSE", "settings.json is not valid JSON; fix it", {
		file: "settings.json",
		detail: "EJSON",
		exitCode: 3,
		cause,
	});
	expect(error).toBeInstanceOf(Error);
	expect([error.name, error.code, error.message, error.file, error.detail, error.exitCode]).toEqual([
		"XcshError",
		"INSTALL_PARSE",
		"settings.json is not valid JSON; fix it",
		"settings.json",
		"EJSON",
		3,
	]);
	expect(error.cause).toBe(cause);
	expect(isXcshError(error)).toBe(true);
	expect(isXcshError(error, "INSTALL_PARSE", "INSTALL_SHAPE")).toBe(true);
	expect(isXcshError(error, "USAGE")).toBe(false);
	expect(isXcshError(new Error("x"))).toBe(false);
	expect(isXcshError({ code: "USAGE", message: "forged" })).toBe(false);
});

test("ToolBlockedError is an XcshError with code TOOL_BLOCKED and the reason as message", () => {
	const blocked = new ToolBlockedError("rm -rf / is destructive", "/p/.xcsh/hooks/guard.ts");
	expect(blocked).toBeInstanceOf(XcshError);
	expect([blocked.name, blocked.code, blocked.message, blocked.reason, blocked.hookPath]).toEqual([
		"ToolBlockedError",
		"TOOL_BLOCKED",
		"rm -rf / is destructive",
		"rm -rf / is destructive",
		"/p/.xcsh/hooks/guard.ts",
	]);
	expect(new ToolBlockedError("").message).toBe("Tool execution was blocked by a hook");
});
