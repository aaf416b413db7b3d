import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

test("the README shows the example files exactly as they are type-checked and run", () => {
	const readme = read("README.md");
	for (const file of ["examples/first-hook.ts", "examples/first-hook.test.ts", "examples/embed.ts"]) expect(readme).toContain(read(file).trim());
	expect(readme).toContain("bun install && bun run demo");
	expect(readme).toContain("bun install && bun test");
});

test("the embedding example runs: the first hook redacts, blocks and the runner finishes", async () => {
	const proc = Bun.spawn(["bun", join(ROOT, "examples/embed.ts")], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	expect(stderr).toBe("");
	expect(code).toBe(0);
	expect(stdout).toContain('text: "API_KEY=*** ran: ls"');
	expect(stdout).toContain("blocked by policy: rm -rf /");
});
