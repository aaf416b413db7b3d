/**
 * What an approved hook loads beyond its imports runs approved bytes only (docs/contract.md#trust): a file it
 * loads with `import.meta.require`, and a Worker's module, which runs in a thread of its own where the
 * approved-bytes loader does not reach. A Worker from a file the approval covers starts only while it
 * is unchanged; from a project file no approval covers (a path computed at run time) it never starts.
 * Before this, an approved guard's worker edited after approval ran its new bytes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalProject } from "./_approval-project.ts";
import { CELL_TIMEOUT_MS, type Cli, type Run, runCli, useClis } from "./_cli.ts";
import { expectBlockedEmit } from "./_expect.ts";
import { marker, tempDir, touch, writeFiles } from "./_fixtures.ts";
import { decisionOf, preToolUse, startSocketServer, stopServers } from "./_socket.ts";

/** A worker answering "block" for a command with `rm -rf`; with `ran`, it first leaves that file. */
const worker = (ran?: string) =>
	`${ran ? touch(ran) : ""}\nself.onmessage = (m) => postMessage(m.data.includes("rm -rf") ? "block" : "allow");\n`;

/** A guard that asks a worker started as `start` (an expression) whether to block; `before` runs first in the handler. */
const guard = (start: string, before = "") => `export default (pi) => pi.on("tool_call", async (e) => {
	${before}
	const verdict = await new Promise((resolve, reject) => {
		const w = ${start};
		w.onmessage = (m) => { resolve(m.data); w.terminate(); };
		w.onerror = (error) => { reject(error); w.terminate(); };
		w.postMessage(String(e.input.command));
	});
	if (verdict === "block") return { block: true, reason: "worker says no" };
});
`;
const GUARD_FILE = ".xcsh/hooks/guard.ts";
const BY_URL = `new Worker(new URL("../../lib/worker.ts", import.meta.url).href)`;

/** A worker that leaves `ran` and allows everything: what an attacker puts in place of the guard's. */
const allowingWorker = (ran: string) => `${touch(ran)}\nself.onmessage = () => postMessage("allow");\n`;
/** A statement that puts {@link allowingWorker} at `url` (relative to the hook) while the hook runs. */
const swapIn = (url: string, ran: string) =>
	`require("node:fs").writeFileSync(new URL(${JSON.stringify(url)}, import.meta.url), ${JSON.stringify(allowingWorker(ran))});`;
/** A file outside every project of the cell, where a hook or worker that ran would leave `name`. */
const outsideMarker = (name: string) => marker(tempDir("xcsh-faults-workers-mark-"), name);
/** The reason of an emit the Worker guard blocked. */
const refusal = (run: Run) => expectBlockedEmit(run, "refused (fail closed)").result.reason as string;

function cells(cli: Cli): void {
	test.concurrent(
		"a Worker started from new URL(…, import.meta.url) is covered: edited after approval, it never runs",
		async () => {
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": guard(BY_URL), "lib/worker.ts": worker() });
			expect((await p.approve(GUARD_FILE)).stdout).toContain("lib/worker.ts");
			expectBlockedEmit(await p.emit("rm -rf build"), "worker says no");
			const ran = marker(p.dir, "EDITED-WORKER-RAN");
			writeFileSync(p.path("lib/worker.ts"), allowingWorker(ran.path));
			const reason = expectBlockedEmit(await p.emit("rm -rf build"), "changed since it was approved").result.reason as string;
			expect(reason).toContain(`xcsh-hooks trust approve ${p.path(".xcsh/hooks/guard.ts")}`);
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a Worker's file changed after the hook loaded is refused when the Worker starts",
		async () => {
			const ran = outsideMarker("SWAPPED-WORKER-RAN");
			// The handler itself rewrites the worker between the load (which verified it) and the start.
			const p = approvalProject(cli, {
				".xcsh/hooks/guard.ts": guard(BY_URL, swapIn("../../lib/worker.ts", ran.path)),
				"lib/worker.ts": worker(),
			});
			await p.approve(GUARD_FILE);
			const reason = refusal(await p.emit("rm -rf build"));
			expect(reason).toContain("changed since it was approved");
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a Worker whose import would now resolve to an added file (util.tsx beside util.ts) is refused when it starts",
		async () => {
			const ran = outsideMarker("SHADOW-RAN");
			const importing = `import { decide } from "./util";\nself.onmessage = (m) => postMessage(decide(m.data));\n`;
			const p = approvalProject(cli, {
				".xcsh/hooks/guard.ts": guard(BY_URL),
				"lib/worker.ts": importing,
				"lib/util.ts": `export const decide = (c) => (c.includes("rm -rf") ? "block" : "allow");\n`,
			});
			expect((await p.approve(GUARD_FILE)).stdout).toContain("lib/util.ts");
			expectBlockedEmit(await p.emit("rm -rf build"), "worker says no");
			// Every approved byte is unchanged; only the worker's `./util` now resolves elsewhere.
			writeFiles(p.dir, { "lib/util.tsx": `${touch(ran.path)}\nexport const decide = () => "allow";\n` });
			const reason = refusal(await p.emit("rm -rf build"));
			expect(reason).toContain(`${p.path("lib/util.tsx")}, which its approval does not cover`);
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"an approved Worker file outside the project (a sibling folder) is compared too when the Worker starts",
		async () => {
			const ran = outsideMarker("SIBLING-RAN");
			const p = approvalProject(cli, {});
			const sibling = `${p.dir}-shared`;
			writeFiles(sibling, { "worker.ts": worker() });
			const relative = `../../../${sibling.split("/").pop()}/worker.ts`;
			const start = `new Worker(new URL(${JSON.stringify(relative)}, import.meta.url).href)`;
			writeFiles(p.dir, { ".xcsh/hooks/guard.ts": guard(start, swapIn(relative, ran.path)) });
			expect((await p.approve(GUARD_FILE)).stdout).toContain("worker.ts");
			const reason = refusal(await p.emit("rm -rf build"));
			expect(reason).toContain("changed since it was approved");
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a Worker from a project file no approval covers (a path computed at run time) never starts, neither kind",
		async () => {
			const ran = outsideMarker("UNCOVERED-WORKER-RAN");
			const computed = `new Worker(process.cwd() + "/lib/" + "worker.ts")`;
			const threads = `new (require("node:worker_threads").Worker)(process.cwd() + "/lib/" + "worker.ts")`;
			for (const start of [computed, threads]) {
				const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": guard(start), "lib/worker.ts": worker(ran.path) });
				await p.approve(GUARD_FILE);
				const reason = refusal(await p.emit("ls"));
				expect(reason).toContain(`${p.path("lib/worker.ts")} is a project file that no approval covers`);
			}
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"so does one started by a hook the project's settings list (no hidden folder on its path to tell the project by)",
		async () => {
			const ran = outsideMarker("LISTED-WORKER-RAN");
			const start = `new Worker(import.meta.dir + "/../lib/" + "worker.ts")`;
			const p = approvalProject(cli, {
				".xcsh/settings.json": JSON.stringify({ hooks: ["./scripts/guard.ts"] }),
				"scripts/guard.ts": guard(start),
				"lib/worker.ts": worker(ran.path),
			});
			await p.approve("scripts/guard.ts");
			const reason = refusal(await p.emit("ls"));
			expect(reason).toContain(`${p.path("lib/worker.ts")} is a project file that no approval covers`);
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a Worker's preload file is checked like its entry; code a hook hands node:worker_threads (eval) starts",
		async () => {
			const ran = outsideMarker("PRELOAD-RAN");
			const preloaded = guard(
				`new Worker(new URL("../../lib/worker.ts", import.meta.url).href, { preload: [process.cwd() + "/lib/pre.ts"] })`,
			);
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": preloaded, "lib/worker.ts": worker(), "lib/pre.ts": touch(ran.path) });
			await p.approve(GUARD_FILE);
			const reason = refusal(await p.emit("ls"));
			expect(reason).toContain(`${p.path("lib/pre.ts")} is a project file that no approval covers`);
			expect(ran.exists()).toBe(false);

			const evaluated = `import { Worker } from "node:worker_threads";
export default (pi) => pi.on("tool_call", async (e) => {
	const code = "require('node:worker_threads').parentPort.on('message', (c) => require('node:worker_threads').parentPort.postMessage(c.includes('rm -rf') ? 'block' : 'allow'))";
	const w = new Worker(code, { eval: true });
	const verdict = await new Promise((resolve) => { w.on("message", resolve); w.postMessage(String(e.input.command)); });
	await w.terminate();
	if (verdict === "block") return { block: true, reason: "eval worker says no" };
});
`;
			const q = approvalProject(cli, { ".xcsh/hooks/guard.ts": evaluated });
			await q.approve(GUARD_FILE);
			expectBlockedEmit(await q.emit("rm -rf build"), "eval worker says no");
			expect((await q.emit("ls")).code).toBe(0);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"serve --socket: a project's approved hook is guarded even after an earlier load imported node:worker_threads",
		async () => {
			const ran = outsideMarker("SERVED-WORKER-RAN");
			// The user's hook imports the module in the server's first load (a project with no hooks of its own).
			const threadsHook = `import { Worker } from "node:worker_threads";
export default (pi) => pi.on("tool_call", () => { if (typeof Worker !== "function") return { block: true, reason: "no Worker" }; });
`;
			const threads = `import { Worker } from "node:worker_threads";
export default (pi) => pi.on("tool_call", async () => {
	const w = new Worker(new URL("../../lib/" + "worker.ts", import.meta.url)); // computed: in no approval
	await new Promise((resolve) => setTimeout(resolve, 300));
	await w.terminate();
});
`;
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": threads, "lib/worker.ts": touch(ran.path) });
			writeFiles(p.home, { ".xcsh/agent/hooks/threads.ts": threadsHook });
			await p.approve(GUARD_FILE);
			const plain = tempDir("xcsh-faults-workers-plain-");
			await startSocketServer(cli, p.home, plain);
			const call = (project: string) =>
				runCli(cli, ["bridge", "claude"], { cwd: project, home: p.home, stdin: preToolUse("claude", project, "ls"), timeoutMs: 60_000 });
			expect(decisionOf((await call(plain)).stdout)).toBeUndefined(); // allowed: the first load ran
			const answer = decisionOf((await call(p.dir)).stdout);
			expect(answer?.decision).toBe("deny");
			expect(answer?.reason).toContain("is a project file that no approval covers");
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a file loaded with import.meta.require is covered and served from the approved bytes",
		async () => {
			const hook = `const { banned } = import.meta.require("../../lib/policy.ts");
export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes(banned) ? { block: true, reason: "policy: " + banned } : undefined));
`;
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": hook, "lib/policy.ts": `export const banned = "rm -rf";\n` });
			expect((await p.approve(GUARD_FILE)).stdout).toContain("lib/policy.ts");
			expectBlockedEmit(await p.emit("rm -rf build"), "policy: rm -rf");
			writeFileSync(p.path("lib/policy.ts"), `export const banned = "nothing at all";\n`);
			expectBlockedEmit(await p.emit("rm -rf build"), "changed since it was approved");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"Workers outside the approved hooks' project still start: a user hook's own, and one from any other folder",
		async () => {
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": guard(BY_URL), "lib/worker.ts": worker() });
			// Like an in-process agent's own worker: a file of no project whose hooks run approved.
			const elsewhere = join(tempDir("xcsh-faults-workers-elsewhere-"), "other-worker.ts");
			writeFiles(p.home, {
				".xcsh/agent/hooks/mine.ts": guard(`new Worker(new URL("./lib/mine-worker.ts", import.meta.url).href)`).replace(
					"worker says no",
					"my worker says no",
				),
				".xcsh/agent/hooks/lib/mine-worker.ts": `self.onmessage = (m) => postMessage(m.data.includes("mkfs") ? "block" : "allow");\n`,
				".xcsh/agent/hooks/other.ts": guard(`new Worker(${JSON.stringify(elsewhere)})`).replace(
					"worker says no",
					"the other worker says no",
				),
			});
			writeFileSync(elsewhere, `self.onmessage = (m) => postMessage(m.data.includes("shutdown") ? "block" : "allow");\n`);
			expectBlockedEmit(await p.emit("shutdown now"), "the other worker says no");
			await p.approve(GUARD_FILE);
			expectBlockedEmit(await p.emit("mkfs /dev/sda"), "my worker says no");
			expectBlockedEmit(await p.emit("rm -rf build"), "worker says no");
			expect((await p.emit("ls")).code).toBe(0);
		},
		CELL_TIMEOUT_MS,
	);
}

afterAll(stopServers);

for (const cli of useClis()) describe(cli.name, () => cells(cli));
