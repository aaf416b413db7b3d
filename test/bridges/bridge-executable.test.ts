/** The bridge matrix through the compiled executable, built once for this file into a temp dir. */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./_bridge.ts";
import { bridgeMatrix } from "./_suite.ts";

let dir: string;
let bin: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "xcsh-bridge-exe-"));
	const { buildExecutable } = await import(join(ROOT, "scripts", "build.ts"));
	bin = (await buildExecutable({ outfile: join(dir, "xcsh-hooks") })).outfile;
}, 180_000);

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

bridgeMatrix(() => [bin]);
