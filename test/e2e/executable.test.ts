/**
 * The real compiled executable, end to end (docs/contract.md#the-executable-serves-the-library, #cli): built once, run from a directory with no
 * `node_modules` anywhere above it, with a minimal environment, loading hooks that value-import
 * every module the executable serves.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const BLOCKED = JSON.stringify({ toolName: "bash", input: { command: "rm -rf /" } });
const ALLOWED = JSON.stringify({ toolName: "bash", input: { command: "ls -la" } });

/** Imports every served module as a value and proves each one resolved by using it. */
const GUARD = `
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { defineHook, HookRunner, type HookAPI } from "xcsh-hooks";
import * as hooks from "xcsh-hooks/hooks";
import * as legacy from "@f5-sales-demo/xcsh/hooks";
import { createHookHarness } from "xcsh-hooks/testing";
import { isDangerous } from "./lib/policy.ts";

const BashInput = Type.Object({ command: Type.String() });
const compiled = TypeCompiler.Compile(BashInput);

export default defineHook((pi: HookAPI) => {
	pi.on("tool_call", (event) => {
		if (event.toolName !== "bash") return;
		if (!Value.Check(BashInput, event.input) || !compiled.Check(event.input)) return { block: true, reason: "guard: bad bash input" };
		const input: Static<typeof BashInput> = event.input;
		if (!isDangerous(input.command)) return;
		const proofs = [
			"typebox=" + (pi.typebox.Type === Type),
			"root=" + (pi.pi.HookRunner === HookRunner),
			"hooks=" + (hooks.HookRunner === HookRunner),
			"legacy=" + (legacy.HookRunner === HookRunner && legacy.defineHook === defineHook),
			"testing=" + (typeof createHookHarness === "function"),
		];
		return { block: true, reason: "guard: rm -rf blocked [" + proofs.join(" ") + "]" };
	});
	pi.registerCommand("policy", { description: "show the policy", handler: async () => {} });
});
`;

/** A module imported by the hook, itself importing a served module: resolution is not only for hook entry files. */
const POLICY = `
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
const Command = Type.String({ pattern: "rm\\\\s+-rf" });
export const isDangerous = (command: string): boolean => Value.Check(Command, command);
`;

const PROOFS = "[typebox=true root=true hooks=true legacy=true testing=true]";

/** A plain JavaScript hook using the seed's package name. */
const SEED_HOOK = `
import { HookRunner } from "@f5-sales-demo/xcsh/hooks";
export default function (pi) {
	pi.on("tool_call", (event) => (event.input.command === "seed" ? { block: true, reason: "seed hook: " + typeof HookRunner } : undefined));
}
`;

const BROKEN = `import { nothing } from "no-such-package-anywhere";\nexport default (pi) => pi.on("tool_call", () => nothing);\n`;

let root: string;
let bin: string;
let project: string;
let home: string;

/** The first `node_modules` directory at or above `dir`, if any. */
function nodeModulesAbove(dir: string): string | undefined {
	for (let current = dir; ; current = dirname(current)) {
		if (existsSync(join(current, "node_modules"))) return join(current, "node_modules");
		if (dirname(current) === current) return undefined;
	}
}

function writeTree(base: string, files: Record<string, string>): void {
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(base, path)), { recursive: true });
		writeFileSync(join(base, path), content);
	}
}

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `argv` (in the project directory by default) with only PATH and a private HOME in its environment. */
async function run(argv: string[], stdin?: string, cwd = project): Promise<Run> {
	const proc = Bun.spawn(argv, {
		cwd,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
		stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, stdout, stderr };
}

const exe = (args: string[], stdin?: string, cwd?: string) => run([bin, ...args], stdin, cwd);

beforeAll(async () => {
	// Prefer /tmp: the system temp dir may sit inside a checkout whose node_modules would mask a resolution bug.
	root = realpathSync(mkdtempSync(join(existsSync("/tmp") ? "/tmp" : tmpdir(), "xcsh-hooks-e2e-")));
	const leak = nodeModulesAbove(root);
	if (leak) throw new Error(`${leak} exists above the test directory ${root}; the executable test needs a tree without node_modules`);
	project = join(root, "project");
	home = join(root, "home");
	mkdirSync(project);
	mkdirSync(home);
	bin = join(root, "bin", "xcsh-hooks");

	const build = Bun.spawn([process.execPath, join(ROOT, "scripts", "build.ts"), "--outfile", bin], {
		cwd: ROOT,
		env: process.env,
		stdout: "pipe",
		stderr: "pipe",
	});
	const [out, err, code] = await Promise.all([new Response(build.stdout).text(), new Response(build.stderr).text(), build.exited]);
	if (code !== 0) throw new Error(`bun scripts/build.ts failed (exit ${code}):\n${out}\n${err}`);
	expect(out).toMatch(/ \d+\.\d MiB /);

	writeTree(project, { "guard.ts": GUARD, "lib/policy.ts": POLICY, "seed.js": SEED_HOOK, "broken.ts": BROKEN });
}, 120_000);

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

describe("dist/xcsh-hooks emit tool_call", () => {
	test("blocks rm -rf: exit 2, the reason on stderr, {event, result, errors, loadErrors} on stdout", async () => {
		const result = await exe(["emit", "tool_call", "--hook", "guard.ts"], BLOCKED);
		expect(result.stderr).toContain(`guard: rm -rf blocked ${PROOFS}`);
		expect(result.code).toBe(2);
		const output = JSON.parse(result.stdout);
		expect(Object.keys(output).sort()).toEqual(["errors", "event", "loadErrors", "result"]);
		expect(output.event).toMatchObject({ type: "tool_call", toolName: "bash", input: { command: "rm -rf /" } });
		expect(output.event.toolCallId).toBeString();
		expect(output.result).toEqual({ block: true, reason: `guard: rm -rf blocked ${PROOFS}` });
		expect(output.errors).toEqual([]);
		expect(output.loadErrors).toEqual([]);
	}, 60_000);

	test("allows a harmless call with exit 0 and a null result", async () => {
		const result = await exe(["emit", "tool_call", "--hook", "guard.ts", "--hook", "seed.js"], ALLOWED);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toMatchObject({ result: null, errors: [], loadErrors: [] });
	}, 60_000);

	test("serves @f5-sales-demo/xcsh/hooks to a plain JavaScript hook", async () => {
		const result = await exe(["emit", "tool_call", "--hook", "seed.js"], JSON.stringify({ toolName: "bash", input: { command: "seed" } }));
		expect(result.code).toBe(2);
		expect(JSON.parse(result.stdout).result).toEqual({ block: true, reason: "seed hook: function" });
	}, 60_000);

	test("a hook that fails to load blocks the call (fail closed) unless --allow-load-errors", async () => {
		const blocked = await exe(["emit", "tool_call", "--hook", "guard.ts", "--hook", "broken.ts"], ALLOWED);
		expect(blocked.code).toBe(2);
		expect(blocked.stderr).toContain("broken.ts");
		const output = JSON.parse(blocked.stdout);
		expect(output.result.block).toBe(true);
		expect(output.loadErrors).toHaveLength(1);
		expect(output.loadErrors[0].error).toContain("no-such-package-anywhere");

		const allowed = await exe(["emit", "tool_call", "--allow-load-errors", "--hook", "guard.ts", "--hook", "broken.ts"], ALLOWED);
		expect(allowed.code).toBe(0);
		const allowedOutput = JSON.parse(allowed.stdout);
		expect(allowedOutput.result).toBeNull();
		expect(allowedOutput.loadErrors).toEqual([
			{ path: join(project, "broken.ts"), error: expect.stringContaining("no-such-package-anywhere") },
		]);
	}, 60_000);
});

describe("dist/xcsh-hooks module identity", () => {
	test("a hook with its own node_modules/xcsh-hooks still gets the executable's instance", async () => {
		const dir = join(root, "with-deps");
		writeTree(dir, {
			"node_modules/xcsh-hooks/package.json": JSON.stringify({ name: "xcsh-hooks", type: "module", exports: { ".": "./index.js" } }),
			"node_modules/xcsh-hooks/index.js": `export const HookRunner = "installed copy";\n`,
			"hook.ts": `import { HookRunner } from "xcsh-hooks";
export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "same=" + (HookRunner === pi.pi.HookRunner) + " " + typeof HookRunner }));\n`,
		});
		const result = await exe(["emit", "tool_call", "--hook", "hook.ts"], ALLOWED, dir);
		expect(JSON.parse(result.stdout).result).toEqual({ block: true, reason: "same=true function" });
	}, 60_000);
});

describe("dist/xcsh-hooks other commands", () => {
	test("check lists the hook's events and commands", async () => {
		const result = await exe(["check", "--hook", "guard.ts"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("guard.ts");
		expect(result.stdout).toContain("tool_call");
		expect(result.stdout).toContain("/policy");
	}, 60_000);

	test("schema tool_call prints JSON Schema", async () => {
		const result = await exe(["schema", "tool_call"]);
		expect(result.code).toBe(0);
		const schema = JSON.parse(result.stdout);
		expect(schema.event.properties.toolName).toBeDefined();
		expect(schema.result.properties.block).toBeDefined();
	}, 60_000);

	test("--help lists the commands", async () => {
		const result = await exe(["--help"]);
		expect(result.code).toBe(0);
		expect(result.stdout + result.stderr).toContain("emit");
	}, 60_000);

	test("serve --socket answers bridge calls the executable forwards, and a deny reaches the agent", async () => {
		const own = join(root, "socket-home");
		writeTree(join(own, ".xcsh", "agent", "hooks"), { "guard.ts": GUARD, "lib/policy.ts": POLICY });
		const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: own, XCSH_HOOKS_PROFILE: "1" };
		const server = Bun.spawn([bin, "serve", "--socket"], { cwd: project, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
		try {
			const { value } = await server.stdout.getReader().read();
			expect(new TextDecoder().decode(value)).toContain('"socket"');
			const payload = JSON.stringify({
				session_id: "e2e",
				cwd: project,
				hook_event_name: "PreToolUse",
				tool_name: "Bash",
				tool_input: { command: "rm -rf /" },
			});
			const proc = Bun.spawn([bin, "bridge", "claude"], {
				cwd: project,
				env,
				stdin: new TextEncoder().encode(payload),
				stdout: "pipe",
				stderr: "pipe",
			});
			const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
			expect(code).toBe(0);
			expect(stderr).toContain('["forwarded",');
			const answer = JSON.parse(stdout).hookSpecificOutput;
			expect(answer.permissionDecision).toBe("deny");
			expect(answer.permissionDecisionReason).toContain("typebox=true"); // the served library, in the server
		} finally {
			server.kill("SIGTERM");
			await server.exited;
		}
	}, 60_000);

	test("a bad command exits 1 with one line and no stack trace", async () => {
		const result = await exe(["frobnicate"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr.trim().split("\n")).toHaveLength(1);
		expect(result.stderr).toContain("frobnicate");
		expect(result.stderr).not.toMatch(/\n\s+at /);
	}, 60_000);
});

describe("dist/xcsh-hooks in an untrusted project", () => {
	test("ignores the project's bunfig.toml preload and .env: no code runs before trust is checked", async () => {
		const dir = join(root, "hostile");
		const marker = join(root, "preload-ran");
		writeTree(dir, {
			"bunfig.toml": `preload = ["./preload.ts"]\n`,
			"preload.ts": `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`,
			".env": "XCSH_HOOKS_LEAK=from-dotenv\n",
			"env-hook.ts": `export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "env=" + (process.env.XCSH_HOOKS_LEAK ?? "none") }));\n`,
		});
		const result = await exe(["emit", "tool_call", "--hook", "env-hook.ts"], ALLOWED, dir);
		expect(result.code).toBe(2);
		expect(JSON.parse(result.stdout).result.reason).toBe("env=none");
		expect(existsSync(marker)).toBe(false);
	}, 60_000);
});

describe("bun src/cli.ts (dev mode) serves the same modules", () => {
	test("the same guard resolves every import without node_modules", async () => {
		const result = await run([process.execPath, join(ROOT, "src", "cli.ts"), "emit", "tool_call", "--hook", "guard.ts"], BLOCKED);
		expect(result.stderr).toContain(`guard: rm -rf blocked ${PROOFS}`);
		expect(result.code).toBe(2);
	}, 60_000);
});
