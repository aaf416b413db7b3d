/**
 * Issue 18, item 4: the bridge client trusts only a socket that is yours. It checks what
 * `serve --socket` checks — the folder is the user's and writable by nobody else, the socket is the
 * user's — and otherwise runs the call itself with one warning, sending nothing there. And no reply of
 * a server is taken for an allow unless it is a whole answer with a verdict (Codex reads an empty
 * stdout as allow). A stand-in server on a real socket, real bridge processes of both CLIs.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, useClis } from "./_cli.ts";
import { isRoot, tempDir, writeFiles } from "./_fixtures.ts";
import { decisionOf, preToolUse, socketOf } from "./_socket.ts";

const clis = useClis();

/** What the stand-in server says: the first protocol's accept, or `ready` and then (after `go`) this answer line. */
type Behaviour = { accepted: string } | { ready: string };

/** The issue's server: it takes the call and answers with an empty stdout. */
const EMPTY_ANSWER: Behaviour = { accepted: '{"stdout":"","stderr":[]}' };

const fakes: Array<{ stop(force?: boolean): void }> = [];
afterEach(() => {
	for (const fake of fakes.splice(0)) fake.stop(true);
});

/** A user guard that runs only when the call runs here: it records the run and denies `rm -rf`. */
function setup() {
	const root = tempDir("xcsh-owner-");
	const home = join(root, "home");
	const project = join(root, "project");
	const runs = join(root, "runs.txt");
	writeFiles(root, {
		"project/README": "a project\n",
		"home/.xcsh/agent/hooks/guard.ts": `import { appendFileSync } from "node:fs";
export default (pi) => pi.on("tool_call", (event) => {
	appendFileSync(${JSON.stringify(runs)}, "ran\\n");
	if (String(event.input.command).includes("rm -rf")) return { block: true, reason: "LOCAL GUARD: no rm -rf" };
});
`,
	});
	const folder = join(home, ".xcsh", "agent");
	mkdirSync(folder, { recursive: true, mode: 0o700 });
	chmodSync(folder, 0o700);
	return {
		home,
		project,
		folder,
		socket: socketOf(home),
		localRuns: () => (existsSync(runs) ? readFileSync(runs, "utf8").split("\n").filter(Boolean).length : 0),
	};
}

/** A server on the socket that is not `serve --socket`; counts the connections it got. */
function fakeServer(socket: string, behave: Behaviour) {
	const seen = { connections: 0, bytes: 0 };
	const listener = Bun.listen<{ text: string; answered: boolean }>({
		unix: socket,
		socket: {
			open(s) {
				seen.connections++;
				s.data = { text: "", answered: false };
			},
			data(s, chunk) {
				seen.bytes += chunk.length;
				s.data.text += new TextDecoder().decode(chunk);
				if ("accepted" in behave) {
					if (!s.data.answered) s.end(`{"accepted":true}\n${behave.accepted}\n`);
					s.data.answered = true;
				} else if (!s.data.answered) {
					s.write('{"ready":true}\n');
					s.data.answered = true;
				} else if (s.data.text.endsWith('{"go":true}\n')) s.end(`${behave.ready}\n`);
			},
		},
	});
	fakes.push(listener);
	return seen;
}

const call = (cli: (typeof clis)[number], s: ReturnType<typeof setup>, command = "rm -rf /") =>
	runCli(cli, ["bridge", "codex"], { cwd: s.project, home: s.home, stdin: preToolUse("codex", s.project, command), timeoutMs: 30_000 });

const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.includes("not using the hook server"));

describe("the bridge client trusts only a socket that is yours", () => {
	for (const cli of clis) {
		const untrusted: Array<[string, (s: ReturnType<typeof setup>) => void, (s: ReturnType<typeof setup>) => string, boolean]> = [
			[
				"the folder is writable by everyone (0777)",
				(s) => chmodSync(s.folder, 0o777),
				(s) => `${s.folder} may be written by other users (mode 777)`,
				false,
			],
			[
				"the folder is group-writable (0770)",
				(s) => chmodSync(s.folder, 0o770),
				(s) => `${s.folder} may be written by other users (mode 770)`,
				false,
			],
			[
				"the socket belongs to another user",
				(s) => chownSync(s.socket, 65534, 65534),
				(s) => `${s.socket} belongs to another user (uid 65534)`,
				true,
			],
			[
				"the folder belongs to another user",
				(s) => chownSync(s.folder, 65534, 65534),
				(s) => `${s.folder} belongs to another user (uid 65534)`,
				true,
			],
		];
		for (const [name, spoil, why, needsRoot] of untrusted)
			test.skipIf(needsRoot && !isRoot)(
				`${cli.name}: ${name} — the call runs here, one warning, nothing sent there`,
				async () => {
					const s = setup();
					const seen = fakeServer(s.socket, EMPTY_ANSWER);
					spoil(s);
					const run = await call(cli, s);
					expect(run.code).toBe(0);
					expect(decisionOf(run.stdout)).toEqual({ decision: "deny", reason: "LOCAL GUARD: no rm -rf [xcsh-hooks: guard.ts]" });
					expect(s.localRuns()).toBe(1);
					expect(seen).toEqual({ connections: 0, bytes: 0 });
					expect(warnings(run.stderr)).toEqual([
						`xcsh-hooks bridge codex: not using the hook server at ${s.socket}: ${why(s)}${why(s).includes("mode") ? `; run: chmod go-w ${s.folder}` : ""}; the call runs here`,
					]);
				},
				60_000,
			);

		const replies: Array<[string, Behaviour, string]> = [
			["an empty answer after the first protocol's accept", EMPTY_ANSWER, "its answer has no verdict"],
			["an empty answer without a verdict", { ready: '{"stdout":"","stderr":[]}' }, "its answer has no verdict"],
			["an empty deny", { ready: '{"stdout":"","stderr":[],"verdict":"deny"}' }, "its deny answer is empty"],
			["an unknown verdict", { ready: '{"stdout":"","stderr":[],"verdict":"maybe"}' }, "its answer has no verdict"],
			["an answer that is not one", { ready: '{"stdout":42,"stderr":[],"verdict":"allow"}' }, "its reply is not an answer"],
		];
		for (const [name, behave, why] of replies)
			test(`${cli.name}: a server of your own with ${name} — a deny, never an allow, the hooks not run again`, async () => {
				const s = setup();
				const seen = fakeServer(s.socket, behave);
				const run = await call(cli, s, "ls");
				expect(run.code).toBe(0);
				const answer = decisionOf(run.stdout);
				expect(answer?.decision).toBe("deny");
				expect(answer?.reason).toContain(`the hook server at ${s.socket} failed: ${why}`);
				expect(seen.connections).toBe(1);
				expect(s.localRuns()).toBe(0);
				expect(warnings(run.stderr)).toEqual([]);
			}, 60_000);

		test(`${cli.name}: a whole answer with its verdict is taken as it is (the control)`, async () => {
			const s = setup();
			fakeServer(s.socket, { ready: '{"stdout":"","stderr":["FROM THE SERVER"],"verdict":"allow"}' });
			const run = await call(cli, s);
			expect(run.code).toBe(0);
			expect(run.stdout).toBe("");
			expect(run.stderr).toContain("FROM THE SERVER");
			expect(s.localRuns()).toBe(0);
		}, 60_000);
	}
});
