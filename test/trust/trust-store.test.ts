import { describe, expect, test } from "bun:test";
import { XcshError } from "../../src/errors.ts";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "pathe";
import { TrustStore, createTrustStore, defaultTrustFile } from "../../src/trust/index.ts";
import { useTempHomeAndProject, writeTree } from "../discovery/_tree.ts";

const SHA_OF_HELLO = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

describe("TrustStore", () => {
	const { home, project } = useTempHomeAndProject();
	const hook = (name = "guard.ts", content = "hello") => {
		writeTree(project(), { [`.xcsh/hooks/${name}`]: content });
		return join(project(), ".xcsh/hooks", name);
	};

	test("lives in ~/.xcsh/agent/trust.json of the current HOME", () => {
		expect(defaultTrustFile()).toBe(join(home(), ".xcsh/agent/trust.json"));
		expect(createTrustStore().file).toBe(join(home(), ".xcsh/agent/trust.json"));
	});

	test("hashFile is the SHA-256 hex of the content", async () => {
		expect(await createTrustStore().hashFile(hook())).toBe(SHA_OF_HELLO);
	});

	test("an unknown file is untrusted; approving it makes it trusted", async () => {
		const store = createTrustStore();
		const path = hook();
		expect(await store.check(path)).toMatchObject({ trusted: false, reason: "unknown", sha256: SHA_OF_HELLO });
		const entry = await store.approve(path);
		expect(entry.sha256).toBe(SHA_OF_HELLO);
		expect(Date.parse(entry.approvedAt)).not.toBeNaN();
		const trusted = await store.check(path);
		expect(trusted).toMatchObject({ trusted: true, sha256: SHA_OF_HELLO });
		expect(new TextDecoder().decode(trusted.bytes)).toBe(readFileSync(path, "utf8")); // the bytes that were hashed
		const onDisk = JSON.parse(readFileSync(store.file, "utf8"));
		expect(onDisk).toEqual({ version: 1, approved: { [path]: entry } });
	});

	test("an edited file is untrusted again (changed); restoring the content trusts it again", async () => {
		const store = createTrustStore();
		const path = hook();
		await store.approve(path);
		writeFileSync(path, "hello, evil");
		const check = await store.check(path);
		expect(check.trusted).toBe(false);
		expect(check.reason).toBe("changed");
		expect(check.sha256).not.toBe(SHA_OF_HELLO);
		writeFileSync(path, "hello");
		expect((await store.check(path)).trusted).toBe(true);
	});

	test("only the content counts, per path: a copy elsewhere is unknown", async () => {
		const store = createTrustStore();
		await store.approve(hook("a.ts"));
		expect((await store.check(hook("b.ts"))).reason).toBe("unknown");
	});

	test("relative paths are stored absolute", async () => {
		const store = createTrustStore();
		const path = hook();
		const previous = process.cwd();
		process.chdir(project());
		try {
			await store.approve(".xcsh/hooks/guard.ts");
		} finally {
			process.chdir(previous);
		}
		expect((await store.list()).map((e) => e.path)).toEqual([path]);
	});

	test("revoke removes the approval and says whether there was one", async () => {
		const store = createTrustStore();
		const path = hook();
		await store.approve(path);
		expect(await store.revoke(path)).toBe(true);
		expect((await store.check(path)).reason).toBe("unknown");
		expect(await store.revoke(path)).toBe(false);
	});

	test("list is sorted by path", async () => {
		const store = createTrustStore();
		const b = hook("b.ts", "b");
		const a = hook("a.ts", "a");
		await store.approve(b);
		await store.approve(a);
		expect((await store.list()).map((e) => e.path)).toEqual([a, b]);
	});

	test("writes keep other entries: concurrent approvals, and a second store on the same file", async () => {
		const file = join(home(), "custom/trust.json");
		const store = new TrustStore(file);
		const paths = Array.from({ length: 20 }, (_, i) => hook(`h${i}.ts`, `content ${i}`));
		await Promise.all(paths.map((p) => store.approve(p)));
		const other = new TrustStore(file);
		await Promise.all([other.revoke(paths[0] as string), store.approve(hook("late.ts"))]);
		const listed = (await store.list()).map((e) => e.path);
		expect(listed).toHaveLength(20);
		expect(listed).not.toContain(paths[0]);
		expect(readdirSync(join(home(), "custom"))).toEqual(["trust.json"]); // no temp files left
	});

	test("a corrupt trust file is an error naming it, and is never overwritten", async () => {
		const store = createTrustStore();
		const path = hook();
		writeTree(home(), { ".xcsh/agent/trust.json": "{ not json" });
		for (const action of [() => store.check(path), () => store.approve(path), () => store.list(), () => store.revoke(path)]) {
			const error = await action().then(
				() => undefined,
				(e: unknown) => e,
			);
			expect(error).toBeInstanceOf(XcshError);
			expect((error as XcshError).code).toBe("TRUST_FILE_CORRUPT");
			expect((error as Error).message).toContain(store.file);
		}
		expect(readFileSync(store.file, "utf8")).toBe("{ not json");
	});

	test("a trust file of the wrong shape is corrupt too", async () => {
		const store = createTrustStore();
		for (const content of [
			JSON.stringify({ version: 2, approved: {} }),
			JSON.stringify({ version: 1, approved: [] }),
			JSON.stringify({ version: 1, approved: { "/x": { sha256: 1 } } }),
		]) {
			writeTree(home(), { ".xcsh/agent/trust.json": content });
			await expect(store.list()).rejects.toThrow(store.file);
		}
	});

	test("hashing a missing file is an error naming it", async () => {
		const missing = join(project(), "nope.ts");
		await expect(createTrustStore().check(missing)).rejects.toThrow(missing);
	});

	test("a symlinked hook is checked by the content it points to", async () => {
		const store = createTrustStore();
		const target = hook("real.ts", "v1");
		const link = join(project(), "link.ts");
		symlinkSync(target, link);
		await store.approve(link);
		writeFileSync(target, "v2");
		expect((await store.check(link)).reason).toBe("changed");
	});
});
