/**
 * A running server asks before each call whether the user turned it off (`"server": false`,
 * src/socket/autostart.ts). It reads settings.json again only when the file's identity changed:
 * these pin that every kind of change is still seen on the next call — rewritten in place with the
 * same length, replaced by a rename, removed, made unreadable JSON — once the cache is in use (the
 * file's last change older than the two seconds after which its identity is trusted).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serverTurnedOff } from "../../src/socket/autostart.ts";
import { tempDir } from "../_helpers.ts";

const home = tempDir("xcsh-settings-read-");
const agent = join(home, ".xcsh", "agent");
const file = join(agent, "settings.json");
const savedHome = process.env.HOME;

/** Waits until the file's last change is old enough for its identity to be trusted (then the next call caches it). */
async function settled(): Promise<void> {
	const info = statSync(file);
	const wait = Math.max(info.mtimeMs, info.ctimeMs) + 2100 - Date.now();
	if (wait > 0) await Bun.sleep(wait);
}

beforeAll(() => {
	mkdirSync(agent, { recursive: true });
	process.env.HOME = home;
});
afterAll(() => {
	process.env.HOME = savedHome;
	rmSync(home, { recursive: true, force: true });
});

describe("a server's look at the user's settings before each call", () => {
	test("a rewrite in place with the same length is seen on the next call", async () => {
		writeFileSync(file, JSON.stringify({ server: true }).padEnd(16)); // the length of {"server":false}
		await settled();
		expect(serverTurnedOff()).toBe(false);
		expect(serverTurnedOff()).toBe(false); // from the cache now
		writeFileSync(file, JSON.stringify({ server: false }));
		expect(serverTurnedOff()).toBe(true);
	}, 20_000);

	test("a file renamed into place, a removed file and broken JSON are seen on the next call", async () => {
		writeFileSync(file, JSON.stringify({ server: false }));
		await settled();
		expect(serverTurnedOff()).toBe(true);
		expect(serverTurnedOff()).toBe(true);
		writeFileSync(`${file}.new`, JSON.stringify({ server: 1 }).padEnd(16));
		renameSync(`${file}.new`, file);
		expect(serverTurnedOff()).toBe(false);
		writeFileSync(file, JSON.stringify({ server: false }));
		await settled();
		expect(serverTurnedOff()).toBe(true);
		rmSync(file);
		expect(serverTurnedOff()).toBe(false);
		writeFileSync(file, JSON.stringify({ server: false }));
		await settled();
		expect(serverTurnedOff()).toBe(true);
		writeFileSync(file, "{not json, the defaults");
		expect(serverTurnedOff()).toBe(false);
	}, 30_000);
});
