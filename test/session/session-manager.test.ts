import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { XcshError } from "../../src/errors.ts";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "../../src/messages.ts";
import { SessionManager } from "../../src/session/index.ts";

let dir: string;
const open: SessionManager[] = [];
function track(manager: SessionManager): SessionManager {
	open.push(manager);
	return manager;
}

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "xcsh-session-"));
});
afterEach(async () => {
	for (const manager of open.splice(0)) manager.close();
	await rm(dir, { recursive: true, force: true });
});

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const assistant = (text: string): AgentMessage => ({ role: "assistant", content: [{ type: "text", text }] });

describe("SessionManager.create / open", () => {
	test("appended entries read back identical, in order, chained by parentId", () => {
		const session = track(SessionManager.create({ cwd: "/project", sessionDir: dir }));
		const ids = [
			session.appendMessage(user("hello")),
			session.appendMessage(assistant("hi")),
			session.appendCustomEntry("counter", { count: 1, nested: [1, 2] }),
			session.appendCustomMessage({ customType: "note", content: "remember", display: true, details: { a: 1 } }),
			session.appendMessage({
				role: "toolResult",
				toolCallId: "t1",
				toolName: "bash",
				content: [{ type: "text", text: "ok" }],
				isError: false,
			}),
		];
		const file = session.getSessionFile();
		expect(file).toStartWith(dir);
		session.close();

		const reopened = track(SessionManager.open(file as string));
		expect(reopened.getWarnings()).toEqual([]);
		expect(reopened.getHeader()).toEqual(session.getHeader());
		expect(reopened.getSessionId()).toBe(session.getSessionId());
		expect(reopened.getCwd()).toBe("/project");
		expect(reopened.getSessionDir()).toBe(dir);
		expect(reopened.getEntries()).toEqual(session.getEntries());
		expect(reopened.getEntries().map((e) => e.id)).toEqual(ids);
		expect(reopened.getEntries().map((e) => e.parentId)).toEqual([null, ...ids.slice(0, -1)]);
		expect(reopened.getEntry(ids[2] as string)).toMatchObject({
			type: "custom",
			customType: "counter",
			data: { count: 1, nested: [1, 2] },
		});
		expect(reopened.getEntry(ids[3] as string)).toMatchObject({
			type: "custom_message",
			customType: "note",
			content: "remember",
			display: true,
			details: { a: 1 },
		});
		expect(reopened.getLeafId()).toBe(ids[4] as string);

		// Appending after reopen continues the chain from the last entry.
		const next = reopened.appendMessage(user("again"));
		expect(reopened.getEntry(next)?.parentId).toBe(ids[4] as string);
	});

	test("the file is a header line then one JSON line per entry", async () => {
		const session = track(SessionManager.create({ cwd: dir, sessionDir: dir, parentSession: "/old.jsonl" }));
		session.appendMessage(user("a"));
		session.appendCustomEntry("state");
		const lines = (await readFile(session.getSessionFile() as string, "utf8")).split("\n");
		expect(lines).toHaveLength(4);
		expect(lines[3]).toBe("");
		expect(JSON.parse(lines[0] as string)).toMatchObject({ type: "session", version: 1, parentSession: "/old.jsonl" });
		expect(JSON.parse(lines[2] as string)).toEqual(session.getEntries()[1] as object);
		expect(Object.keys(JSON.parse(lines[1] as string))).toEqual(["type", "id", "parentId", "timestamp", "message"]);
	});

	test("default directory is <HOME>/.xcsh/agent/sessions, HOME read at call time", async () => {
		const previous = process.env.HOME;
		process.env.HOME = dir;
		try {
			const session = track(SessionManager.create({ cwd: dir }));
			expect(session.getSessionDir()).toBe(join(dir, ".xcsh", "agent", "sessions"));
			expect(await readdir(session.getSessionDir())).toHaveLength(1);
		} finally {
			process.env.HOME = previous;
		}
	});

	test("open creates a missing file (and its directory) with a header", async () => {
		const file = join(dir, "nested", "s.jsonl");
		const session = track(SessionManager.open(file, { cwd: "/work" }));
		expect(session.getCwd()).toBe("/work");
		const text = await readFile(file, "utf8");
		expect(JSON.parse(text)).toEqual(session.getHeader());
		expect(track(SessionManager.open(file)).getSessionId()).toBe(session.getSessionId());
	});

	test("entries handed out are frozen and appends do not keep references to caller objects", () => {
		const session = track(SessionManager.create({ cwd: dir, sessionDir: dir }));
		const data = { n: 1 };
		const id = session.appendCustomEntry("s", data);
		data.n = 2;
		const entry = session.getEntry(id);
		expect(entry).toMatchObject({ data: { n: 1 } });
		expect(() => {
			(entry as { data: { n: number } }).data.n = 3;
		}).toThrow();
	});

	test("invalid entries and appends after close are refused", () => {
		const session = track(SessionManager.create({ cwd: dir, sessionDir: dir }));
		const bad = { role: "user" } as unknown as AgentMessage;
		expect(() => session.appendMessage(bad)).toThrow(/\/message/);
		expect(() => session.appendLabel("nope", "x")).toThrow(XcshError);
		session.close();
		session.close();
		expect(() => session.appendCustomEntry("late")).toThrow(expect.objectContaining({ code: "SESSION_CLOSED" }));
		expect(session.getEntries()).toEqual([]);
	});
});

describe("branches, labels and the tree", () => {
	test("branch() moves the leaf; getBranch/getLeafEntry/getTree/getLabel follow", () => {
		const session = track(SessionManager.create({ cwd: dir, sessionDir: dir }));
		expect(session.getLeafId()).toBeNull();
		expect(session.getLeafEntry()).toBeUndefined();
		expect(session.getBranch()).toEqual([]);

		const a = session.appendMessage(user("a"));
		const b = session.appendMessage(assistant("b"));
		const c = session.appendMessage(user("c"));
		session.branch(a);
		expect(session.getLeafId()).toBe(a);
		const d = session.appendMessage(user("d"));
		expect(session.getEntry(d)?.parentId).toBe(a);
		expect(session.getLeafEntry()?.id).toBe(d);
		expect(session.getBranch().map((e) => e.id)).toEqual([a, d]);
		expect(session.getBranch(c).map((e) => e.id)).toEqual([a, b, c]);
		expect(session.getBranch("missing")).toEqual([]);
		expect(() => session.branch("missing")).toThrow(expect.objectContaining({ code: "UNKNOWN_ENTRY" }));

		const label = session.appendLabel(b, "checkpoint");
		expect(session.getLabel(b)).toBe("checkpoint");
		session.appendLabel(b, "renamed");
		expect(session.getLabel(b)).toBe("renamed");
		expect(session.getEntry(label)?.parentId).toBe(d);

		const tree = session.getTree();
		expect(tree).toHaveLength(1);
		const root = tree[0];
		expect(root?.entry.id).toBe(a);
		expect(root?.children.map((n) => n.entry.id)).toEqual([b, d]);
		expect(root?.children[0]?.children.map((n) => n.entry.id)).toEqual([c]);

		const reopened = track(SessionManager.open(session.getSessionFile() as string));
		expect(reopened.getLabel(b)).toBe("renamed");
		expect(reopened.getTree()).toEqual(tree);
		session.appendLabel(b, undefined);
		expect(session.getLabel(b)).toBeUndefined();
		expect(track(SessionManager.open(session.getSessionFile() as string)).getLabel(b)).toBeUndefined();
	});

	test("compaction and branch summary entries round-trip", () => {
		const session = track(SessionManager.create({ cwd: dir, sessionDir: dir }));
		const a = session.appendMessage(user("a"));
		const b = session.appendMessage(user("b"));
		session.branch(a);
		session.appendBranchSummary({ fromId: b, summary: "tried b" });
		session.appendCompaction({ summary: "all of it", firstKeptEntryId: a, tokensBefore: 1200 });
		const reopened = track(SessionManager.open(session.getSessionFile() as string));
		expect(reopened.getBranch().map((e) => e.type)).toEqual(["message", "branch_summary", "compaction"]);
		expect(reopened.getLeafEntry()).toMatchObject({ summary: "all of it", tokensBefore: 1200 });
	});
});

describe("SessionManager.inMemory", () => {
	test("same API, no file written", async () => {
		const session = SessionManager.inMemory(dir);
		expect(session.getSessionFile()).toBeUndefined();
		expect(session.getCwd()).toBe(dir);
		const a = session.appendMessage(user("a"));
		const b = session.appendCustomMessage({ customType: "x", content: [{ type: "text", text: "t" }], display: false });
		session.branch(a);
		const c = session.appendCustomEntry("s");
		session.appendLabel(c, "here");
		expect(session.getEntries().map((e) => e.id)).toContain(b);
		expect(session.getBranch(c).map((e) => e.id)).toEqual([a, c]);
		expect(session.getLabel(c)).toBe("here");
		expect(session.getTree()[0]?.children).toHaveLength(2);
		expect(await readdir(dir)).toEqual([]);
	});
});
