import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SessionManager } from "../../src/session/index.ts";

const sessionIndex = resolve(import.meta.dir, "../../src/session/index.ts");
let dir: string;
let script: string;

// The child appends forever, alternating small and large (up to 192 KiB) entries so a kill can
// land in the middle of a write, and acknowledges each one only after `append*` has returned.
const childSource = `
import { writeSync } from "node:fs";
import { SessionManager } from ${JSON.stringify(sessionIndex)};
const [file, round] = process.argv.slice(2);
const session = SessionManager.open(file);
const payload = (n) => \`\${round}:\${n}:\`.padEnd(1 + (n % 4) * 65536, String(n % 10));
for (let n = 0; n < 1_000_000; n++) {
	if (n % 3 === 0) session.appendMessage({ role: "user", content: payload(n) });
	else session.appendCustomEntry("tick", { round: Number(round), n, payload: payload(n) });
	writeSync(1, \`ack \${n}\\n\`);
}
`;

function expectedPayload(round: number, n: number): string {
	return `${round}:${n}:`.padEnd(1 + (n % 4) * 65536, String(n % 10));
}

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), "xcsh-session-kill-"));
	script = join(dir, "append-loop.ts");
	await writeFile(script, childSource);
});
afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Runs the child until it has acknowledged at least `minAcks` appends, SIGKILLs it, returns every ack it printed. */
async function appendUntilKilled(file: string, round: number, minAcks: number): Promise<number[]> {
	const child = Bun.spawn([process.execPath, script, file, String(round)], {
		cwd: dir,
		env: process.env,
		stdout: "pipe",
		stderr: "pipe",
	});
	const acks: number[] = [];
	const decoder = new TextDecoder();
	let pending = "";
	let killed = false;
	for await (const chunk of child.stdout) {
		pending += decoder.decode(chunk, { stream: true });
		const lines = pending.split("\n");
		pending = lines.pop() ?? "";
		for (const line of lines) acks.push(Number(line.replace(/^ack /, "")));
		if (!killed && acks.length >= minAcks) {
			child.kill("SIGKILL");
			killed = true;
		}
	}
	await child.exited;
	if (!killed) throw new Error(`child exited early (${child.exitCode}): ${await new Response(child.stderr).text()}`);
	expect(child.signalCode).toBe("SIGKILL");
	return acks;
}

test("every acknowledged append survives kill -9, across repeated crashes and reopens", async () => {
	const file = join(dir, "crash.jsonl");
	const acked: Array<{ round: number; n: number }> = [];
	for (const round of [1, 2, 3]) {
		const acks = await appendUntilKilled(file, round, 20 + round * 5);
		expect(acks.length).toBeGreaterThanOrEqual(20);
		expect(acks).toEqual(acks.map((_, i) => i));
		for (const n of acks) acked.push({ round, n });
	}

	const session = SessionManager.open(file);
	const entries = session.getEntries();
	try {
		// Only a torn final line of some round may be skipped; no complete line is ever lost.
		for (const warning of session.getWarnings()) expect(warning).toMatch(/skipped (incomplete last|unparseable) line/);
		expect(session.getWarnings().length).toBeLessThanOrEqual(3);

		const found = new Map<string, string>();
		for (const entry of entries) {
			if (entry.type === "custom") {
				const data = entry.data as { round: number; n: number; payload: string };
				found.set(`${data.round}:${data.n}`, data.payload);
			} else if (entry.type === "message" && entry.message.role === "user") {
				const content = entry.message.content as string;
				const [round, n] = content.split(":");
				found.set(`${round}:${n}`, content);
			}
		}
		for (const { round, n } of acked) expect(found.get(`${round}:${n}`)).toBe(expectedPayload(round, n));

		// One writer at a time: the parentId chain runs unbroken through all rounds.
		expect(entries.map((e) => e.parentId)).toEqual([null, ...entries.slice(0, -1).map((e) => e.id)]);
	} finally {
		session.close();
	}
}, 60_000);
