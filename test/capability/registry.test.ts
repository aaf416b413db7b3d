import { describe, expect, test } from "bun:test";
import { CapabilityRegistry, type LoadResult } from "../../src/discovery/capability/index.ts";
import { defaultRegistry, defineCapability, loadCapability } from "../../src/discovery/register.ts";

interface Item {
	id: string;
	from: string;
	path?: string;
	bad?: boolean;
}

function setup(): CapabilityRegistry {
	const registry = new CapabilityRegistry();
	registry.defineCapability<Item>({
		id: "things",
		displayName: "thing",
		description: "test items",
		key: (item) => item.id,
		validate: (item) => (item.bad ? "is bad" : undefined),
		toExtensionId: (item) => `thing:${item.id}`,
	});
	return registry;
}

function provider(id: string, priority: number, items: Item[] | (() => LoadResult<Item> | Promise<LoadResult<Item>>)) {
	return {
		id,
		displayName: `P-${id}`,
		description: id,
		priority,
		load: typeof items === "function" ? items : () => ({ items }),
	};
}

const ids = (items: Item[]) => items.map((i) => `${i.from}:${i.id}`);

describe("CapabilityRegistry", () => {
	test("merges highest priority first, whatever the registration order", async () => {
		const registry = setup();
		registry.registerProvider("things", provider("low", 10, [{ id: "a", from: "low" }]));
		registry.registerProvider("things", provider("high", 90, [{ id: "b", from: "high" }]));
		const result = await registry.loadCapability<Item>("things", { cwd: "/" });
		expect(ids(result.items)).toEqual(["high:b", "low:a"]);
		expect(result.providers.map((p) => [p.id, p.priority, p.itemCount])).toEqual([
			["high", 90, 1],
			["low", 10, 1],
		]);
	});

	test("equal priorities keep registration order", async () => {
		const registry = setup();
		for (const name of ["x", "y", "z"]) registry.registerProvider("things", provider(name, 50, [{ id: name, from: name }]));
		expect(ids((await registry.loadCapability<Item>("things", { cwd: "/" })).items)).toEqual(["x:x", "y:y", "z:z"]);
	});

	test("runs providers concurrently but merges in priority order", async () => {
		const registry = setup();
		const started: string[] = [];
		const slow = () => {
			started.push("slow");
			return Bun.sleep(30).then(() => {
				started.push("slow done");
				return { items: [{ id: "s", from: "slow" }] };
			});
		};
		const fast = () => {
			started.push("fast");
			return { items: [{ id: "f", from: "fast" }] };
		};
		registry.registerProvider("things", provider("slow", 90, slow));
		registry.registerProvider("things", provider("fast", 10, fast));
		const result = await registry.loadCapability<Item>("things", { cwd: "/" });
		expect(started).toEqual(["slow", "fast", "slow done"]);
		expect(ids(result.items)).toEqual(["slow:s", "fast:f"]);
	});

	test("a key seen twice: first wins, the later one is only in all, marked _shadowed", async () => {
		const registry = setup();
		registry.registerProvider("things", provider("claude", 80, [{ id: "same", from: "claude" }]));
		registry.registerProvider("things", provider("native", 100, [{ id: "same", from: "native" }]));
		const result = await registry.loadCapability<Item>("things", { cwd: "/" });
		expect(ids(result.items)).toEqual(["native:same"]);
		expect(result.all.map((i) => [i.from, i._shadowed ?? false])).toEqual([
			["native", false],
			["claude", true],
		]);
	});

	test("disabledExtensions drops items unless includeDisabled", async () => {
		const registry = setup();
		registry.registerProvider(
			"things",
			provider("p", 1, [
				{ id: "a", from: "p" },
				{ id: "b", from: "p" },
			]),
		);
		const off = await registry.loadCapability<Item>("things", { cwd: "/", disabledExtensions: ["thing:a"] });
		expect(ids(off.items)).toEqual(["p:b"]);
		expect(off.all.find((i) => i.id === "a")?._disabled).toBe(true);
		const kept = await registry.loadCapability<Item>("things", {
			cwd: "/",
			disabledExtensions: ["thing:a"],
			includeDisabled: true,
		});
		expect(ids(kept.items)).toEqual(["p:a", "p:b"]);
	});

	test("providers and excludeProviders filter which providers run", async () => {
		const registry = setup();
		let ranB = false;
		registry.registerProvider("things", provider("a", 3, [{ id: "1", from: "a" }]));
		registry.registerProvider(
			"things",
			provider("b", 2, () => ((ranB = true), { items: [{ id: "2", from: "b" }] })),
		);
		registry.registerProvider("things", provider("c", 1, [{ id: "3", from: "c" }]));
		const only = await registry.loadCapability<Item>("things", { cwd: "/", providers: ["a", "c"] });
		expect(ids(only.items)).toEqual(["a:1", "c:3"]);
		expect(ranB).toBe(false);
		const without = await registry.loadCapability<Item>("things", { cwd: "/", excludeProviders: ["a"] });
		expect(ids(without.items)).toEqual(["b:2", "c:3"]);
		expect(without.providers.map((p) => p.id)).toEqual(["b", "c"]);
	});

	test("invalid items leave items, stay in all, and warn with their path", async () => {
		const registry = setup();
		registry.registerProvider(
			"things",
			provider("p", 1, [
				{ id: "ok", from: "p" },
				{ id: "broken", from: "p", path: "/tmp/hooks/broken.sh", bad: true },
			]),
		);
		const result = await registry.loadCapability<Item>("things", { cwd: "/" });
		expect(ids(result.items)).toEqual(["p:ok"]);
		expect(result.all.find((i) => i.id === "broken")?._invalid).toBe("is bad");
		expect(result.warnings).toEqual(["[P-p] Invalid thing /tmp/hooks/broken.sh: is bad"]);
		const lenient = await registry.loadCapability<Item>("things", { cwd: "/", includeInvalid: true });
		expect(ids(lenient.items)).toEqual(["p:ok", "p:broken"]);
		expect(lenient.warnings).toHaveLength(1);
	});

	test("a throwing provider becomes a warning; the others still load", async () => {
		const registry = setup();
		registry.registerProvider(
			"things",
			provider("sync", 3, () => {
				throw new Error("boom");
			}),
		);
		registry.registerProvider(
			"things",
			provider("async", 2, async () => {
				throw new Error("later boom");
			}),
		);
		registry.registerProvider("things", provider("fine", 1, [{ id: "a", from: "fine" }]));
		const result = await registry.loadCapability<Item>("things", { cwd: "/" });
		expect(ids(result.items)).toEqual(["fine:a"]);
		expect(result.warnings).toEqual(["[P-sync] Failed to load: boom", "[P-async] Failed to load: later boom"]);
	});

	test("provider warnings are prefixed with the provider name", async () => {
		const registry = setup();
		registry.registerProvider(
			"things",
			provider("w", 1, () => ({ items: [], warnings: ["/x: dangling symlink"] })),
		);
		expect((await registry.loadCapability("things", { cwd: "/" })).warnings).toEqual(["[P-w] /x: dangling symlink"]);
	});

	test("providers get cwd and the current HOME", async () => {
		const registry = setup();
		let seen: unknown;
		registry.registerProvider(
			"things",
			provider("ctx", 1, (...args: unknown[]) => ((seen = args[0]), { items: [] })),
		);
		await registry.loadCapability("things", { cwd: "/some/project" });
		expect(seen).toEqual({ cwd: "/some/project", home: process.env.HOME });
	});

	test("duplicate capability ids, unknown capabilities and duplicate providers throw, naming them", async () => {
		const registry = setup();
		expect(() => registry.defineCapability({ id: "things", displayName: "", description: "", key: String })).toThrow(/"things"/);
		expect(() => registry.registerProvider("nope", provider("p", 1, []))).toThrow(/"nope"/);
		await expect(registry.loadCapability("missing", { cwd: "/" })).rejects.toThrow(/"missing"/);
		registry.registerProvider("things", provider("p", 1, []));
		expect(() => registry.registerProvider("things", provider("p", 2, []))).toThrow(/"p"/);
	});

	test("the module-level functions use the default registry", async () => {
		const id = `default-${crypto.randomUUID()}`;
		defineCapability<Item>({ id, displayName: "d", description: "", key: (i) => i.id });
		defaultRegistry.registerProvider(id, provider("p", 1, [{ id: "a", from: "p" }]));
		expect(ids((await loadCapability<Item>(id, { cwd: "/" })).items)).toEqual(["p:a"]);
		expect(() => defineCapability({ id, displayName: "d", description: "", key: String })).toThrow(id);
	});
});
