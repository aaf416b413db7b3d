import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { XcshError } from "../../src/errors.ts";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "../../src/session/index.ts";

let dir: string;
const open: SessionManager[] = [];
function load(file: string, warnings: string[] = []): SessionManager {
	const manager = SessionManager.open(file, { onWarning: (message) => warnings.push(message) });
	open.push(manager);
	return manager;
}

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "xcsh-session-recovery-"));
});
afterEach(async () => {
	for (const manager of open.splice(0)) manager.close();
	await rm(dir, { recursive: true, force: true });
});

/** A closed session file holding `count` custom entries; returns its path and their ids. */
function writeSession(count: number): { file: string; ids: string[] } {
	const session = SessionManager.create({ cwd: dir, sessionDir: dir });
	const ids = Array.from({ length: count }, (_, i) => session.appendCustomEntry("step", { i }));
	session.close();
	return { file: session.getSessionFile() as string, ids };
}

describe("torn last line", () => {
	test("is skipped with a warning; the next append starts a fresh line and survives reopen", async () => {
		const { file, ids } = writeSession(3);
		await appendFile(file, '{"type":"custom","id":"torn","parentId":"x","timest');

		const warnings: string[] = [];
		const session = load(file, warnings);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(`${file}:5`);
		expect(warnings[0]).toContain("incomplete last line");
		expect(session.getWarnings()).toEqual(warnings);
		expect(session.getEntries().map((e) => e.id)).toEqual(ids);

		const next = session.appendCustomEntry("after", { ok: true });
		session.close();

		const reopened = load(file);
		expect(reopened.getEntries().map((e) => e.id)).toEqual([...ids, next]);
		expect(reopened.getEntry(next)).toMatchObject({ data: { ok: true }, parentId: ids[2] as string });
		// The fragment is kept (bytes are never removed), now a complete but unparseable line.
		expect(reopened.getWarnings()).toEqual([expect.stringContaining(`${file}:5: skipped unparseable line`)]);
	});

	test("a complete last entry missing only its newline is kept", async () => {
		const { file, ids } = writeSession(2);
		const text = await readFile(file, "utf8");
		await writeFile(file, text.slice(0, -1));
		const session = load(file);
		expect(session.getWarnings()).toEqual([]);
		expect(session.getEntries().map((e) => e.id)).toEqual(ids);
		const next = session.appendCustomEntry("after");
		expect(
			load(file)
				.getEntries()
				.map((e) => e.id),
		).toEqual([...ids, next]);
	});
});

describe("bad lines in the middle", () => {
	test("garbage is skipped with file and line number; later lines still load", async () => {
		const { file, ids } = writeSession(4);
		const lines = (await readFile(file, "utf8")).split("\n");
		lines.splice(3, 0, "this is not json {");
		await writeFile(file, lines.join("\n"));

		const warnings: string[] = [];
		const session = load(file, warnings);
		expect(warnings).toEqual([expect.stringContaining(`${file}:4: skipped unparseable line`)]);
		expect(session.getEntries().map((e) => e.id)).toEqual(ids);
	});

	test("valid JSON that is not a valid entry is skipped naming the field", async () => {
		const { file, ids } = writeSession(2);
		await appendFile(file, `${JSON.stringify({ type: "message", id: "m", parentId: null, timestamp: "t", message: { role: "user" } })}\n`);
		await appendFile(file, `${JSON.stringify({ type: "mystery", id: "q", parentId: null, timestamp: "t" })}\n`);
		await appendFile(file, `${JSON.stringify({ type: "custom", id: ids[0], parentId: null, timestamp: "t", customType: "dup" })}\n`);
		const session = load(file);
		const warnings = session.getWarnings();
		expect(warnings).toHaveLength(3);
		expect(warnings[0]).toMatch(/:4: skipped invalid entry: \/message/);
		expect(warnings[1]).toContain(':5: skipped invalid entry: unknown entry type "mystery"');
		expect(warnings[2]).toContain(":6: skipped entry with duplicate id");
		expect(session.getEntries().map((e) => e.id)).toEqual(ids);
	});

	test("an entry whose parent line was lost becomes a root of the tree", async () => {
		const { file, ids } = writeSession(3);
		const lines = (await readFile(file, "utf8")).split("\n");
		lines[2] = "{broken";
		await writeFile(file, lines.join("\n"));
		const [first, , third] = ids;
		const session = load(file);
		expect(session.getTree().map((node) => node.entry.id)).toEqual([first, third] as string[]);
		expect(session.getBranch().map((e) => e.id)).toEqual([third] as string[]);
	});
});

describe("files that are not sessions", () => {
	const cases: Record<string, string> = {
		"plain text": "dear diary\nsecond line\n",
		"JSON without a header": `${JSON.stringify({ type: "custom", id: "a", parentId: null, timestamp: "t", customType: "c" })}\n`,
		"a header of another version": `${JSON.stringify({ type: "session", version: 2, id: "s", timestamp: "t", cwd: "/" })}\n`,
		"a header missing cwd": `${JSON.stringify({ type: "session", version: 1, id: "s", timestamp: "t" })}\n`,
	};
	for (const [name, content] of Object.entries(cases)) {
		test(`${name}: refused with the file named, left byte-identical`, async () => {
			const file = join(dir, "notes.jsonl");
			await writeFile(file, content);
			let error: unknown;
			try {
				load(file);
			} catch (caught) {
				error = caught;
			}
			expect(error).toBeInstanceOf(XcshError);
			expect((error as XcshError).message).toContain(file);
			expect(["NOT_A_SESSION", "UNSUPPORTED_VERSION"]).toContain((error as XcshError).code);
			expect(await readFile(file, "utf8")).toBe(content);
		});
	}

	test("an empty file gets a header (nothing in it to lose)", async () => {
		const file = join(dir, "empty.jsonl");
		await writeFile(file, "");
		const session = load(file);
		session.appendCustomEntry("x");
		expect(load(file).getEntries()).toHaveLength(1);
	});
});
