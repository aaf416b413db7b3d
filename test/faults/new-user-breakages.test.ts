/**
 * Small breakages a new user hit (issue 18, item 11): the embedding example under a path with a space,
 * a CLI whose reader closes the pipe (`schema | head -1`), and `install.sh … | head -1`.
 * The pipes are real shell pipes; the CLI's own exit status and stderr are captured inside the shell.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { assetName, buildRelease, type ReleasePlatform } from "../../scripts/release.ts";
import { CELL_TIMEOUT_MS, ROOT, runArgv, useClis } from "./_cli.ts";
import { bashCall, privateHome, tempDir } from "./_fixtures.ts";

describe("the embedding example (examples/embed.ts, shown in docs/embedding.md)", () => {
	test(
		"runs from a folder whose path has a space: the first hook loads, redacts and blocks",
		async () => {
			const dir = join(tempDir("xcsh-faults-embed-"), "my agent");
			mkdirSync(join(dir, "node_modules", "@sinclair"), { recursive: true });
			for (const file of ["embed.ts", "first-hook.ts"]) copyFileSync(join(ROOT, "examples", file), join(dir, file));
			// As after `bun add xcsh-hooks`: the package and its dependency resolve from the folder.
			symlinkSync(ROOT, join(dir, "node_modules", "xcsh-hooks"));
			symlinkSync(join(ROOT, "node_modules", "@sinclair", "typebox"), join(dir, "node_modules", "@sinclair", "typebox"));
			const run = await runArgv([process.execPath, "embed.ts"], { cwd: dir, home: privateHome(), timeoutMs: 30_000 });
			expect(run.stderr).toBe("");
			expect(run.code).toBe(0);
			expect(run.stdout).toContain('text: "API_KEY=*** ran: ls"');
			expect(run.stdout).toContain("blocked by policy: rm -rf /");
		},
		CELL_TIMEOUT_MS,
	);
});

/**
 * Runs `<cli> <args…>` in `sh` with its stdout piped into `reader`, and reports the CLI's own exit
 * status and stderr (captured inside the shell: the pipeline's status would be the reader's).
 */
async function piped(argv: string[], reader: string) {
	const dir = tempDir("xcsh-faults-pipe-");
	const status = join(dir, "status");
	const stderr = join(dir, "stderr");
	const script = `{ "$@" 2>"${stderr}"; echo "$?" >"${status}"; } | ${reader}`;
	const run = await runArgv(["sh", "-c", script, "sh", ...argv], { cwd: dir, home: privateHome(), timeoutMs: 30_000 });
	return {
		stdout: run.stdout,
		cliStatus: existsSync(status) ? readFileSync(status, "utf8").trim() : "(none)",
		cliStderr: existsSync(stderr) ? readFileSync(stderr, "utf8") : "(none)",
	};
}

// The reader closes its end at once and stays a moment: the CLI, starting later, writes into a closed pipe.
const CLOSED_AT_ONCE = "(exec 0<&-; sleep 1)";

describe("a reader that closes the pipe is not an error", () => {
	for (const cli of useClis()) {
		test(
			`${cli.name}: schema | head -1 prints the first line; the CLI exits 0 with nothing on stderr`,
			async () => {
				const run = await piped(cli.argv(["schema"]), "head -1");
				expect(run.stdout).toBe("{\n");
				expect(run.cliStderr).toBe("");
				expect(run.cliStatus).toBe("0");
			},
			CELL_TIMEOUT_MS,
		);

		test(
			`${cli.name}: a closed pipe never turns a blocked emit tool_call into another exit code`,
			async () => {
				const hook = join(ROOT, "examples", "first-hook.ts");
				const run = await piped(
					cli.argv(["emit", "tool_call", "--no-discovery", "--hook", hook, "--data", bashCall("rm -rf /")]),
					CLOSED_AT_ONCE,
				);
				expect(run.cliStatus).toBe("2");
				expect(run.cliStderr).not.toContain("EPIPE");
			},
			CELL_TIMEOUT_MS,
		);

		test(
			`${cli.name}: --help into a closed pipe exits 0 quietly`,
			async () => {
				const run = await piped(cli.argv(["--help"]), CLOSED_AT_ONCE);
				expect(run.cliStderr).toBe("");
				expect(run.cliStatus).toBe("0");
			},
			CELL_TIMEOUT_MS,
		);
	}
});

/** The platform install.sh picks here (glibc Linux, macOS; musl where Alpine says so). */
function hostPlatform(): ReleasePlatform {
	const arch = process.arch === "arm64" ? "arm64" : "x64";
	if (process.platform === "darwin") return `darwin-${arch}`;
	return arch === "x64" && existsSync("/etc/alpine-release") ? "linux-x64-musl" : `linux-${arch}`;
}

describe.skipIf(process.platform === "win32")("scripts/install.sh piped into head", () => {
	let release = "";
	beforeAll(async () => {
		release = join(tempDir("xcsh-faults-release-"), "release");
		await buildRelease({ outdir: release, platforms: [hostPlatform()] });
	}, 120_000);
	afterAll(() => {
		if (release) rmSync(join(release, ".."), { recursive: true, force: true });
	});

	test(
		"install.sh | head -1: installed, and no claim that the binary does not run",
		async () => {
			const home = privateHome();
			const bin = join(home, ".local", "bin");
			const dir = tempDir("xcsh-faults-pipe-");
			const stderr = join(dir, "stderr");
			// The install folder on PATH: no note, so the next output after the first line is the self-check's.
			const script = `sh "${join(release, "install.sh")}" 2>"${stderr}" | head -1`;
			const run = await runArgv(["sh", "-c", script], {
				cwd: dir,
				home,
				env: { XCSH_HOOKS_RELEASE: release, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
				timeoutMs: 30_000,
			});
			const name = assetName(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version, hostPlatform());
			expect(run.stdout).toBe(`installed ${name} (${hostPlatform()}) to ${join(bin, "xcsh-hooks")}\n`);
			expect(readFileSync(stderr, "utf8")).toBe("");
			expect(existsSync(join(bin, "xcsh-hooks"))).toBe(true);
		},
		CELL_TIMEOUT_MS,
	);
});
