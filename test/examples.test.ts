import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

test("the README and docs show the example files exactly as they are type-checked and run", () => {
	const readme = read("README.md");
	expect(readme).toContain(read("examples/first-hook.ts").trim());
	expect(read("docs/testing.md")).toContain(read("examples/first-hook.test.ts").trim());
	expect(read("docs/embedding.md")).toContain(read("examples/embed.ts").trim());
	expect(readme).toContain("bun install && bun run demo");
	expect(readme).toContain("bun install && bun test");
}, 60_000);

test("the embedding example runs: the first hook redacts, blocks and the runner finishes", async () => {
	const proc = Bun.spawn(["bun", join(ROOT, "examples/embed.ts")], { cwd: ROOT, env: process.env, stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	expect(stderr).toBe("");
	expect(code).toBe(0);
	expect(stdout).toContain('text: "API_KEY=*** ran: ls"');
	expect(stdout).toContain("blocked by policy: rm -rf /");
}, 60_000);

test("docs/composing.md shows the composing example files exactly as they are type-checked and run", () => {
	const readme = read("docs/composing.md");
	for (const file of ["examples/redact-emails.ts", "examples/rewrite-dry-run.ts"]) expect(readme).toContain(read(file).trim());
	expect(readme).toContain("bun examples/compose.ts");
}, 60_000);

test("the composing example runs: the rewriter fixes kubectl apply before the guard, both redactions apply, rm -rf is blocked", async () => {
	const proc = Bun.spawn(["bun", join(ROOT, "examples/compose.ts")], { cwd: ROOT, env: process.env, stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	expect(stderr).toBe("");
	expect(code).toBe(0);
	expect(stdout).toContain('text: "ran: kubectl apply -f app.yaml --dry-run=server\\nAPI_KEY=*** owner=<email>"');
	expect(stdout).toContain("blocked by policy: rm -rf /");
}, 60_000);

test("the first hook and the e-mail redactor compose through `xcsh-hooks run read`", async () => {
	const dir = mkdtempSync(join(tmpdir(), "xcsh-examples-"));
	writeFileSync(join(dir, ".env"), "API_KEY=abc\nOWNER=ops@example.com\n");
	const hooks = ["first-hook.ts", "redact-emails.ts"].flatMap((file) => ["--hook", join(ROOT, "examples", file)]);
	const proc = Bun.spawn(["bun", join(ROOT, "src/cli.ts"), "run", "read", "--no-discovery", ...hooks, "--input", '{"path":".env"}'], {
		cwd: dir,
		env: process.env,
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "API_KEY=***\nOWNER=<email>\n", stderr: "" });
}, 60_000);

test("docs/composing.md's `run read` command works as written from a clone: its input file ships with the examples", async () => {
	const readme = read("docs/composing.md");
	const line = readme.split("\n").find((l) => l.startsWith("xcsh-hooks run read --hook examples/first-hook.ts")) as string;
	expect(line).toBeDefined();
	const argv = (line.match(/'[^']*'|\S+/g) as string[]).slice(1).map((word) => word.replace(/^'|'$/g, ""));
	const proc = Bun.spawn(["bun", join(ROOT, "src/cli.ts"), ...argv, "--no-discovery"], {
		cwd: ROOT,
		env: process.env,
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "API_KEY=***\nOWNER=<email>\n", stderr: "" });
}, 60_000);

test("the rewriter and the guard compose through `xcsh-hooks emit tool_call`: a plain kubectl apply becomes a dry run, a compound one is judged as written", async () => {
	const hooks = ["rewrite-dry-run.ts", "first-hook.ts"].flatMap((file) => ["--hook", join(ROOT, "examples", file)]);
	const emit = async (command: string) => {
		const data = JSON.stringify({ toolName: "bash", input: { command } });
		const proc = Bun.spawn(["bun", join(ROOT, "src/cli.ts"), "emit", "tool_call", "--no-discovery", ...hooks, "--data", data], {
			cwd: ROOT,
			env: process.env,
			stdout: "pipe",
			stderr: "pipe",
		});
		const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
		return { code, result: JSON.parse(stdout).result };
	};
	expect(await emit("kubectl apply -f app.yaml")).toEqual({
		code: 0,
		result: { input: { command: "kubectl apply -f app.yaml --dry-run=server" } },
	});
	expect(await emit("kubectl apply -f app.yaml; rm -rf /")).toEqual({
		code: 2,
		result: { block: true, reason: "blocked by policy: kubectl apply -f app.yaml; rm -rf /" },
	});
}, 60_000);
