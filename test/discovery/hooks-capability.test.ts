import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "pathe";
import { type Hook, hookCapability, hookExtensionId, hookKey, validateHook } from "../../src/discovery/index.ts";
import { tempDir } from "./_tree.ts";

const hook = (path: string, name = "bash"): Hook => ({
	name,
	path,
	type: "pre",
	tool: "bash",
	level: "project",
	_source: { provider: "test", providerName: "Test", level: "project" },
});

describe("hookCapability", () => {
	test("key and extension id", () => {
		const h = hook("/x/pre/bash.sh");
		expect(hookKey(h)).toBe("pre:bash:bash");
		expect(hookExtensionId(h)).toBe("hook:pre:bash:bash");
		expect(hookCapability.id).toBe("hooks");
		expect(hookCapability.key(h)).toBe("pre:bash:bash");
		expect(hookCapability.toExtensionId?.(h)).toBe("hook:pre:bash:bash");
	});

	test("validate: an existing file (or a symlink to one) is valid; missing, directories and broken links are not", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "bash.sh"), "");
		mkdirSync(join(dir, "folder"));
		symlinkSync(join(dir, "bash.sh"), join(dir, "link.sh"));
		symlinkSync(join(dir, "nothing"), join(dir, "broken.sh"));
		symlinkSync(join(dir, "loop.sh"), join(dir, "loop.sh"));
		expect(validateHook(hook(join(dir, "bash.sh")))).toBeUndefined();
		expect(validateHook(hook(join(dir, "link.sh")))).toBeUndefined();
		expect(validateHook(hook(join(dir, "missing.sh")))).toBe("file does not exist");
		expect(validateHook(hook(join(dir, "broken.sh")))).toBe("file does not exist");
		expect(validateHook(hook(join(dir, "folder")))).toBe("not a file");
		expect(validateHook(hook(join(dir, "loop.sh")))).toBe("cannot stat: ELOOP");
		rmSync(dir, { recursive: true, force: true });
	});
});
