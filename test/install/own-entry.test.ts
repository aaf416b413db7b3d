import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { forwarding } from "../../src/socket/forward.ts";
import { ConfigText } from "../../src/install/_config-text.ts";
import { INSTALL_MARKER, installBridge, isBridgeArgv, isBridgeCommand, shellWords } from "../../src/install/index.ts";
import { tempDir } from "../_helpers.ts";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";

describe("which commands are ours", () => {
	test.each([
		["/opt/xcsh/xcsh-hooks bridge claude --installed-by=xcsh-hooks", true],
		["'/my tools/run it' --flag bridge claude --installed-by=xcsh-hooks", true],
		["/usr/bin/bun --no-env-file --config=/dev/null /src/x/src/cli.ts bridge claude --installed-by=xcsh-hooks", true],
		// The forms earlier versions wrote, exactly.
		["/opt/xcsh/xcsh-hooks bridge claude", true],
		["xcsh-hooks bridge claude", true],
		["'/a b/xcsh-hooks' bridge claude", true],
		["'C:\\Users\\me\\xcsh-hooks.exe' bridge claude", true],
		["/dl/xcsh-hooks-0.4.0-linux-x64 bridge claude", true],
		["bunx xcsh-hooks bridge claude", true],
		["/usr/bin/bun --no-env-file --config=/dev/null /src/x/src/cli.ts bridge claude", true],
		// A user's own.
		["/usr/local/bin/my-audit --mode bridge claude", false],
		["my-audit bridge claude", false],
		["/opt/xcsh-hooks-audit bridge claude", false],
		["sudo xcsh-hooks bridge claude", false],
		["xcsh-hooks bridge claude --verbose", false],
		["xcsh-hooks bridge claude; rm -rf /", false],
		["$(which xcsh-hooks) bridge claude", false],
		["xcsh-hooks bridge claude --installed-by=someone-else", false],
		["xcsh-hooks bridge codex --installed-by=xcsh-hooks", false],
		["bridge claude --installed-by=xcsh-hooks", false],
	])("%s → %p", (command, ours) => {
		expect(isBridgeCommand(command, "claude")).toBe(ours);
	});

	test("any agent when none is named; argv form for entries with args; shell words", () => {
		expect(isBridgeCommand("xcsh-hooks bridge gemini --installed-by=xcsh-hooks")).toBe(true);
		expect(isBridgeCommand("xcsh-hooks bridge vim --installed-by=xcsh-hooks")).toBe(false);
		expect(isBridgeArgv(["/opt/xcsh-hooks", "bridge", "codex", "--installed-by=xcsh-hooks"])).toBe(true);
		expect(isBridgeArgv(["/opt/my-audit", "--mode", "bridge", "codex"])).toBe(false);
		// A managed entry says --managed before the marker (install --managed finds, updates and removes it).
		expect(
			isBridgeCommand("/usr/bin/env -u BUN_BE_BUN /etc/xcsh/bin/xcsh-hooks bridge claude --managed --installed-by=xcsh-hooks", "claude"),
		).toBe(true);
		expect(isBridgeArgv(["xcsh-hooks", "bridge", "claude", "--managed", "--installed-by=xcsh-hooks"], "codex")).toBe(false);
		expect(isBridgeArgv(["xcsh-hooks", "--managed", "--installed-by=xcsh-hooks"])).toBe(false);
		expect(shellWords(`a 'b c' "d \\"e\\"" f\\ g h#i`)).toEqual(["a", "b c", 'd "e"', "f g", "h#i"]);
		expect(shellWords("a 'b")).toBeUndefined();
		expect(shellWords("a | b")).toBeUndefined();
		expect(shellWords('a "$HOME"')).toBeUndefined();
	});
});

test("the marker changes nothing about a call: a marked entry is forwarded to serve --socket like an unmarked one", () => {
	expect(forwarding(["bridge", "claude", INSTALL_MARKER])).toEqual({ agent: "claude", allowLoadErrors: false });
	expect(forwarding(["bridge", "cursor", "--timeout", "5", INSTALL_MARKER])).toEqual({
		agent: "cursor",
		allowLoadErrors: false,
		timeoutSeconds: 5,
	});
	expect(forwarding(["bridge", "claude", INSTALL_MARKER, INSTALL_MARKER])).toBeUndefined();
	// A managed entry's line is a plain bridge call (no argument parser), marked managed: it never goes to the server.
	expect(forwarding(["bridge", "claude", "--managed", INSTALL_MARKER])).toEqual({ agent: "claude", allowLoadErrors: false, managed: true });
	expect(forwarding(["bridge", "claude", "--managed=1", INSTALL_MARKER])).toBeUndefined();
});

describe("editing the text", () => {
	test("removing an entry takes its separator: first, middle, last; the style of additions follows the file", () => {
		const doc = new ConfigText('{"a": [1, 2, 3], "b": 1.0}');
		const list = doc.root().members?.[0]?.value;
		if (!list) throw new Error("no list");
		doc.remove(list, 1);
		expect(doc.text).toBe('{"a": [1, 3], "b": 1.0}');
		doc.remove(doc.root().members?.[0]?.value as never, 0);
		expect(doc.text).toBe('{"a": [3], "b": 1.0}');
		doc.append(doc.root(), { x: [true] }, "c");
		expect(doc.text).toBe('{"a": [3], "b": 1.0, "c": {"x": [true]}}');
		doc.remove(doc.root(), 2);
		expect(doc.text).toBe('{"a": [3], "b": 1.0}');
	});

	test("a group of ours with another matcher gets the event's, keeping the group's other keys; a repeated hooks key edits the one that counts", async () => {
		const dir = tempDir();
		const file = join(dir, ".claude/settings.json");
		mkdirSync(join(dir, ".claude"));
		const group = '{"matcher": "Bash", "note": "mine", "hooks": [{"type": "command", "command": "/o/xcsh-hooks bridge claude"}]}';
		const text = `{"hooks": {"Stop": []}, "hooks": {"PreToolUse": [${group}]}}`;
		writeFileSync(file, text);
		const result = await installBridge("claude", { cwd: dir, command: "/o/xcsh-hooks" });
		expect(result.changes[0]).toMatchObject({ action: "update", event: "PreToolUse", matcher: "*" });
		const after = readFileSync(file, "utf8");
		expect(after.startsWith('{"hooks": {"Stop": []}, "hooks": {"PreToolUse": [{"matcher": "*", "note": "mine", "hooks": [{')).toBe(true);
		expect(JSON.parse(after).hooks.PreToolUse[0].hooks[0].command).toBe(
			entryCommand("/o/xcsh-hooks bridge claude --installed-by=xcsh-hooks", true),
		);
	});
});
