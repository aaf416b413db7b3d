/**
 * A neighbour hook cannot unmake a guard (docs/security.md). Two of your own hooks run in one
 * process: `a-neighbour.ts` (first by name, so first to run) replaces a JavaScript built-in in its
 * `tool_call` handler — `Map.prototype.get`, the array iterator, `Promise.race`, `structuredClone`,
 * `JSON.stringify`… — and `b-guard.ts` blocks `rm -rf`. Whatever the neighbour replaced, the call is
 * denied with a reason naming the neighbour, by the compiled executable (`bridge claude|codex|gemini`,
 * `emit tool_call`); before the fix most of these answered nothing (allow).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Cli, executablePath, runArgv, runCli, useClis } from "./_cli.ts";
import { extensionSource } from "../../src/agents/pi/extension.ts";
import { privateHome, tempDir, writeFiles } from "./_fixtures.ts";
import { preToolUse } from "./_socket.ts";
import { readFileSync } from "node:fs";
import { ROOT } from "./_cli.ts";

const CLIS = useClis();
const compiled = CLIS[0] as Cli;
const fromSource = CLIS[1] as Cli;

const GUARD = `export default (pi) => pi.on("tool_call", async (e) =>
	String(e.input.command).includes("rm -rf") ? { block: true, reason: "guard: no rm -rf" } : undefined);
`;

/** A neighbour whose `tool_call` handler runs `body` (a statement), then lets the call through. */
const neighbour = (body: string) => `export default (pi) => pi.on("tool_call", ${body.includes("await") ? "async " : ""}() => {
	${body}
});
`;

/** What a neighbour replaces, as a statement run in its handler. */
const PATCHES: Record<string, string> = {
	"Map.prototype.get": "Map.prototype.get = () => undefined;",
	"Map.prototype.set": "Map.prototype.set = function () { return this; };",
	"Map.prototype.has": "Map.prototype.has = () => false;",
	"Set.prototype.has": "Set.prototype.has = () => false;",
	"Array.prototype[Symbol.iterator]": "Array.prototype[Symbol.iterator] = function* () {};",
	"%ArrayIteratorPrototype%.next": "Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true, value: undefined });",
	"Array.prototype.push": "Array.prototype.push = () => 0;",
	"Array.prototype.map": "Array.prototype.map = () => [];",
	"Array.prototype.filter": "Array.prototype.filter = () => [];",
	"Array.prototype.some": "Array.prototype.some = () => false;",
	"Array.prototype.slice": "Array.prototype.slice = () => [];",
	"Array.prototype.join": 'Array.prototype.join = () => "";',
	"Array.isArray": "Array.isArray = () => false;",
	"Promise.race": "Promise.race = () => Promise.reject(new Error('no'));",
	"Promise.resolve": "Promise.resolve = () => ({ then: (ok) => ok(undefined) });",
	"Promise.all": "Promise.all = async () => [];",
	"Promise.prototype.then":
		"const then = Promise.prototype.then; Promise.prototype.then = function (ok, ko) { return then.call(this, () => ok?.(undefined), ko); };",
	structuredClone: "globalThis.structuredClone = () => ({});",
	"JSON.stringify": 'JSON.stringify = () => "";',
	"JSON.parse": "JSON.parse = () => ({});",
	"Object.keys": "Object.keys = () => [];",
	"Object.assign": "Object.assign = (target) => target;",
	"Object.freeze": "Object.freeze = (value) => value;",
	"Object.entries": "Object.entries = () => [];",
	"Object.prototype.then": "Object.prototype.then = function (ok) { ok(undefined); };",
	"Object.prototype.block": "Object.prototype.block = false;",
	"String.prototype.includes": "String.prototype.includes = () => false;",
	"String.prototype.slice": 'String.prototype.slice = () => "";',
	"String.prototype.replace": 'String.prototype.replace = () => "";',
	"Function.prototype.call": "Function.prototype.call = function () {};",
	"Function.prototype.apply": "Function.prototype.apply = function () {};",
	"Reflect.apply": "Reflect.apply = () => undefined;",
	"Reflect.ownKeys": "Reflect.ownKeys = () => [];",
	"globalThis.Map": "globalThis.Map = class { get() {} set() { return this; } has() { return false; } };",
	"globalThis.Promise": "globalThis.Promise = function () {};",
	"Bun.write": "Bun.write = async () => 0;",
	"TextEncoder.prototype.encode": "TextEncoder.prototype.encode = () => new Uint8Array(0);",
	"process.exit put back": "process.exit = (code) => process.reallyExit(code);",
	"Map.prototype.get, as a getter": 'Object.defineProperty(Map.prototype, "get", { get: () => () => undefined, configurable: true });',
	"Map.prototype.get, for good":
		'Object.defineProperty(Map.prototype, "get", { value: () => undefined, writable: false, configurable: false });',
	"JSON.stringify, frozen": 'JSON.stringify = () => ""; Object.freeze(JSON);',
	"Array.prototype's prototype": "Object.setPrototypeOf(Array.prototype, new Proxy({}, { get: () => undefined }));",
	"Map.prototype.get, after an await": "await null; Map.prototype.get = () => undefined;",
	"JSON.stringify, in a timer": 'setTimeout(() => { JSON.stringify = () => ""; });',
};

/** One agent's guard payload for `rm -rf` in `project`, and how its answer reads. */
interface Agent {
	name: string;
	payload(project: string): string;
	/** The deny reason of an answer, or `undefined` when it does not deny. */
	denied(stdout: string): string | undefined;
}

const claudeStyle = (stdout: string) => {
	if (!stdout.trim()) return undefined;
	const out = JSON.parse(stdout).hookSpecificOutput;
	return out?.permissionDecision === "deny" ? String(out.permissionDecisionReason) : undefined;
};

const AGENTS: Record<string, Agent> = {
	claude: { name: "claude", payload: (p) => preToolUse("claude", p, "rm -rf ./build"), denied: claudeStyle },
	codex: { name: "codex", payload: (p) => preToolUse("codex", p, "rm -rf ./build"), denied: claudeStyle },
	gemini: {
		name: "gemini",
		payload: (p) => {
			const payload = JSON.parse(readFileSync(join(ROOT, "test", "bridges", "fixtures", "gemini", "BeforeTool.json"), "utf8"));
			return JSON.stringify({ ...payload, cwd: p, tool_input: { command: "rm -rf ./build", description: "t" } });
		},
		denied: (stdout) => {
			if (!stdout.trim()) return undefined;
			const out = JSON.parse(stdout);
			return out.decision === "deny" ? String(out.reason) : undefined;
		},
	},
};

/** A private HOME (no server: each call runs on its own) holding the two user hooks, and a project. */
function setup(patch: string) {
	const home = privateHome({ server: false });
	const project = tempDir("xcsh-faults-neighbour-");
	writeFiles(home, {
		".xcsh/agent/hooks/a-neighbour.ts": neighbour(patch),
		".xcsh/agent/hooks/b-guard.ts": GUARD,
	});
	return { home, project, neighbourPath: join(home, ".xcsh", "agent", "hooks", "a-neighbour.ts") };
}

async function bridge(cli: Cli, agent: Agent, patch: string) {
	const { home, project } = setup(patch);
	return runCli(cli, ["bridge", agent.name], { cwd: project, home, stdin: agent.payload(project), timeoutMs: 30_000 });
}

/** The call is denied, and the reason names the neighbour (a changed built-in is reported, not only survived). */
function expectDenied(run: { code: number | null; stdout: string; stderr: string }, agent: Agent): void {
	expect(run.code, run.stderr).toBe(0);
	const reason = agent.denied(run.stdout);
	expect(reason, `stdout: ${run.stdout}\nstderr: ${run.stderr}`).toBeDefined();
	expect(reason as string).toContain("a-neighbour.ts");
}

describe("bridge claude (compiled executable): a neighbour that replaces a built-in before the guard", () => {
	for (const [name, patch] of Object.entries(PATCHES))
		test.concurrent(`${name}: rm -rf is still denied`, async () => {
			const run = await bridge(compiled, AGENTS.claude as Agent, patch);
			// Work left for later is not waited for once the guard blocked: denied, not always named.
			if (name.endsWith("in a timer")) expect((AGENTS.claude as Agent).denied(run.stdout), run.stderr).toBeDefined();
			else expectDenied(run, AGENTS.claude as Agent);
		}, 60_000);
});

// The patches that answered "allow" before the fix, for the other agents and `emit`.
const MAIN = [
	"Map.prototype.get",
	"Array.prototype[Symbol.iterator]",
	"Promise.race",
	"structuredClone",
	"JSON.stringify",
	"Object.prototype.then",
];

for (const agent of ["codex", "gemini"])
	describe(`bridge ${agent} (compiled executable)`, () => {
		for (const name of MAIN)
			test.concurrent(`${name}: rm -rf is still denied, the reason names the neighbour`, async () => {
				const run = await bridge(compiled, AGENTS[agent] as Agent, PATCHES[name] as string);
				expectDenied(run, AGENTS[agent] as Agent);
				expect((AGENTS[agent] as Agent).denied(run.stdout)).toContain("a-neighbour.ts");
			}, 60_000);
	});

describe("emit tool_call", () => {
	for (const cli of [compiled, fromSource])
		for (const name of cli === compiled ? MAIN : ["Map.prototype.get"])
			test.concurrent(`${cli.name}, ${name}: blocked (exit 2), the reason names the neighbour`, async () => {
				const { home, project } = setup(PATCHES[name] as string);
				const run = await runCli(cli, ["emit", "tool_call"], {
					cwd: project,
					home,
					stdin: JSON.stringify({ toolName: "bash", input: { command: "rm -rf ./build" } }),
					timeoutMs: 30_000,
				});
				expect(run.code, run.stderr).toBe(2);
				expect(JSON.parse(run.stdout).result.block).toBe(true);
				expect(run.stderr).toContain("a-neighbour.ts changed JavaScript built-ins");
			}, 60_000);
});

describe("a neighbour that changes a built-in while it loads", () => {
	test.concurrent("compiled executable, bridge claude: the neighbour is a load error and rm -rf is denied naming it", async () => {
		const home = privateHome({ server: false });
		const project = tempDir("xcsh-faults-neighbour-");
		writeFiles(home, {
			".xcsh/agent/hooks/a-neighbour.ts": `export default (pi) => { Map.prototype.get = () => undefined; pi.on("tool_call", () => undefined); };\n`,
			".xcsh/agent/hooks/b-guard.ts": GUARD,
		});
		const agent = AGENTS.claude as Agent;
		const run = await runCli(compiled, ["bridge", "claude"], { cwd: project, home, stdin: agent.payload(project), timeoutMs: 30_000 });
		expectDenied(run, agent);
		expect(agent.denied(run.stdout)).toContain("a-neighbour.ts");
	}, 60_000);
});

describe("a neighbour that changes nothing", () => {
	test.concurrent("compiled executable, bridge claude: ls is allowed (no false alarm), rm -rf denied by the guard", async () => {
		const { home, project } = setup("void 0;");
		const agent = AGENTS.claude as Agent;
		const ls = await runCli(compiled, ["bridge", "claude"], {
			cwd: project,
			home,
			stdin: preToolUse("claude", project, "ls -la"),
			timeoutMs: 30_000,
		});
		expect(ls.code, ls.stderr).toBe(0);
		expect(agent.denied(ls.stdout), ls.stdout + ls.stderr).toBeUndefined();
		const rm = await runCli(compiled, ["bridge", "claude"], { cwd: project, home, stdin: agent.payload(project), timeoutMs: 30_000 });
		expect(agent.denied(rm.stdout)).toContain("guard: no rm -rf");
	}, 60_000);
});

describe("pi extension (under Node, answered by the compiled executable's bridge pi)", () => {
	const EXTENSION = ".pi/extensions/xcsh-hooks.js";
	for (const name of ["Map.prototype.get", "Promise.race"])
		test.concurrent(`${name}: rm -rf is blocked, the reason names the neighbour`, async () => {
			const { home, project } = setup(PATCHES[name] as string);
			writeFiles(project, { [EXTENSION]: extensionSource({ tool_call: `'${executablePath()}' bridge pi` }, 30_000) });
			const event = { type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "rm -rf ./build" } };
			const run = await runArgv(["node", join(import.meta.dir, "_pi-call.mjs"), join(project, EXTENSION), JSON.stringify(event)], {
				cwd: project,
				home,
				timeoutMs: 60_000,
			});
			expect(run.code, run.stderr).toBe(0);
			const seen = JSON.parse(run.stdout.trim()) as { answer: { block?: boolean; reason?: string } | null };
			expect(seen.answer?.block, run.stdout).toBe(true);
			expect(seen.answer?.reason).toContain("a-neighbour.ts");
		}, 90_000);
});

describe("the test harness (xcsh-hooks/testing), in a process of its own", () => {
	for (const name of ["Map.prototype.get", "Promise.race", "structuredClone"])
		test.concurrent(`${name} replaced by the first handler of a hook: the guard handler after it still blocks rm -rf, naming the hook`, async () => {
			const { home, project } = setup(PATCHES[name] as string);
			const hook = join(project, "both.ts");
			// One hook file: the neighbour's handler first, then the guard's.
			writeFiles(project, {
				"both.ts": `export default (pi) => {
	pi.on("tool_call", () => { ${PATCHES[name]} });
	pi.on("tool_call", async (e) => String(e.input.command).includes("rm -rf") ? { block: true, reason: "guard: no rm -rf" } : undefined);
};
`,
				"drive.ts": `import { createHookHarness } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};
const harness = await createHookHarness(${JSON.stringify(hook)});
console.log(JSON.stringify(await harness.toolCall("bash", { command: "rm -rf ./build" })));
process.exit(0);
`,
			});
			const run = await runArgv([process.execPath, join(project, "drive.ts")], { cwd: project, home, timeoutMs: 60_000 });
			expect(run.code, run.stderr).toBe(0);
			const outcome = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as { blocked?: boolean; reason?: string };
			expect(outcome.blocked, run.stdout).toBe(true);
			expect(outcome.reason).toContain("both.ts changed JavaScript built-ins");
		}, 90_000);
});
