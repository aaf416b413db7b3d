import { expect, test } from "bun:test";
import * as root from "xcsh-hooks";
import * as hooks from "xcsh-hooks/hooks";
import * as guards from "xcsh-hooks/guards";
import * as testing from "xcsh-hooks/testing";

test("xcsh-hooks/hooks exports the loading APIs, runner, wrapper, schemas and execCommand", () => {
	for (const name of [
		"loadHooks",
		"discoverAndLoadHooks",
		"HookRunner",
		"HookToolWrapper",
		"execCommand",
		"validateEvent",
		"defineHook",
		"HookEventSchemas",
		"HookResultSchemas",
	])
		expect(typeof (hooks as Record<string, unknown>)[name]).not.toBe("undefined");
}, 60_000);

test("the package root re-exports every public name, the hooks surface included", () => {
	for (const name of Object.keys(hooks)) expect((root as Record<string, unknown>)[name]).toBe((hooks as Record<string, unknown>)[name]);
	for (const name of [
		"SessionManager",
		"createNoOpUIContext",
		"renderStatusLine",
		"createBuiltinTools",
		"loadCapability",
		"defineCapability",
		"registerProvider",
		"TrustStore",
		"loadSettings",
		"homeDir",
	])
		expect(typeof (root as Record<string, unknown>)[name]).not.toBe("undefined");
	expect(typeof testing.createHookHarness).toBe("function");
}, 60_000);

test("xcsh-hooks/guards exports the shell guard, its packs and the typed rule helpers", () => {
	for (const name of [
		"createShellGuard",
		"parseOptions",
		"hasFlag",
		"gitSubcommand",
		"PACKS",
		"DEFAULT_PACKS",
		"gitPack",
		"filesystemPack",
		"loadShellParser",
	])
		expect(typeof (guards as Record<string, unknown>)[name]).not.toBe("undefined");
	expect(Object.keys(guards.PACKS).sort()).toEqual([
		"backup",
		"ci",
		"cloud",
		"containers",
		"databases",
		"filesystem",
		"git",
		"hosting",
		"messaging",
		"privilege",
		"rsync",
		"search",
		"secrets",
		"shell",
		"storage",
		"windows",
	]);
});
