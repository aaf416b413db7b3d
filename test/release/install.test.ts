/**
 * The download-and-verify path: `scripts/release.ts` builds named assets plus SHA256SUMS, and
 * `scripts/install.sh` picks this machine's asset, checks it and installs it. Offline: the release is
 * a local folder holding one asset (this machine's, to keep the build short). `XCSH_SLOW_TESTS=1`
 * also builds every platform.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assetName, buildRelease, RELEASE_TARGETS, type ReleasePlatform } from "../../scripts/release.ts";

const INSTALL = join(import.meta.dir, "..", "..", "scripts", "install.sh");
const VERSION = (JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8")) as { version: string }).version;

/** The platform install.sh picks here (glibc Linux, macOS; musl where Alpine says so). */
function hostPlatform(): ReleasePlatform {
	const arch = process.arch === "arm64" ? "arm64" : "x64";
	if (process.platform === "darwin") return `darwin-${arch}`;
	if (process.platform === "win32") return "windows-x64";
	return arch === "x64" && existsSync("/etc/alpine-release") ? "linux-x64-musl" : `linux-${arch}`;
}

let root = "";
let release = "";

beforeAll(async () => {
	root = mkdtempSync(join(tmpdir(), "xcsh-hooks-release-"));
	release = join(root, "release");
	await buildRelease({ outdir: release, platforms: [hostPlatform()] });
}, 120_000);

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

async function install(args: string[], env: Record<string, string>): Promise<Run> {
	const proc = Bun.spawn(["sh", INSTALL, ...args], {
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, stdout, stderr };
}

const freshHome = () => mkdtempSync(join(root, "home-"));

describe("scripts/release.ts", () => {
	test("names carry the version and the platform, .exe on Windows", () => {
		expect(assetName("0.1.0", "linux-x64")).toBe("xcsh-hooks-0.1.0-linux-x64");
		expect(assetName("0.1.0", "windows-x64")).toBe("xcsh-hooks-0.1.0-windows-x64.exe");
		expect(Object.keys(RELEASE_TARGETS).sort()).toEqual([
			"darwin-arm64",
			"darwin-x64",
			"linux-arm64",
			"linux-x64",
			"linux-x64-musl",
			"windows-x64",
		]);
	}, 60_000);

	test("writes the asset and a SHA256SUMS that sha256sum -c accepts", async () => {
		const name = assetName(VERSION, hostPlatform());
		expect(readdirSync(release).sort()).toEqual(["SHA256SUMS", "install.sh", name].sort());
		const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
		expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  install\\.sh\\n[0-9a-f]{64}  ${name.replaceAll(".", "\\.")}\\n$`));
		const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: release, env: process.env, stdout: "pipe", stderr: "pipe" });
		expect(check.stdout.toString()).toContain(`${name}: OK`);
		expect(check.stdout.toString()).toContain("install.sh: OK");
		expect(check.exitCode).toBe(0);
	}, 60_000);

	test("`bun run release` prints one line per target, size in MiB, and none of Bun's build output", async () => {
		const outdir = join(root, "printed");
		const proc = Bun.spawn(
			[process.execPath, join(import.meta.dir, "..", "..", "scripts", "release.ts"), "--target", hostPlatform(), "--outdir", outdir],
			{
				cwd: root,
				env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? root, TMPDIR: process.env.TMPDIR ?? "/tmp" },
				stdout: "pipe",
				stderr: "pipe",
			},
		);
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		expect(stderr).toBe("");
		expect(code).toBe(0);
		const name = assetName(VERSION, hostPlatform()).replaceAll(".", "\\.");
		const lines = stdout.trimEnd().split("\n");
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(new RegExp(`^printed/${name}  \\d+\\.\\d MiB  [0-9a-f]{12}…$`));
		expect(lines[1]).toMatch(/^printed\/SHA256SUMS {2}\(\d+ ms\)$/);
		expect(readdirSync(outdir).sort()).toEqual(["SHA256SUMS", "install.sh", assetName(VERSION, hostPlatform())].sort());
	}, 120_000);

	test.skipIf(!process.env.XCSH_SLOW_TESTS)(
		"XCSH_SLOW_TESTS: cross-compiles every platform",
		async () => {
			const all = await buildRelease({ outdir: join(root, "all") });
			expect(all.assets.map((a) => a.platform as string).sort()).toEqual(Object.keys(RELEASE_TARGETS).sort());
			expect(all.sums.trim().split("\n")).toHaveLength(7);
		},
		600_000,
	);
});

describe.skipIf(process.platform === "win32")("scripts/install.sh from a local release folder", () => {
	test("installs this machine's asset to ~/.local/bin after checking its checksum, and it runs", async () => {
		const home = freshHome();
		const run = await install([], { HOME: home, XCSH_HOOKS_RELEASE: release });
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const installed = join(home, ".local", "bin", "xcsh-hooks");
		expect(run.stdout).toContain(`installed ${assetName(VERSION, hostPlatform())} (${hostPlatform()}) to ${installed}`);
		expect(run.stdout).toContain(`xcsh-hooks ${VERSION} (Bun ${Bun.version})`);
		const version = Bun.spawnSync([installed, "--version"], { env: { ...process.env, HOME: home }, stdout: "pipe" });
		expect(version.stdout.toString().trim()).toBe(`xcsh-hooks ${VERSION} (Bun ${Bun.version})`);
	}, 60_000);

	test("--dir and --version choose where and which", async () => {
		const home = freshHome();
		const dir = join(home, "tools", "bin");
		const run = await install(["--dir", dir, "--version", VERSION], {
			HOME: home,
			XCSH_HOOKS_RELEASE: release,
			PATH: `${dir}:/usr/bin:/bin`,
		});
		expect(run.code).toBe(0);
		expect(run.stdout).not.toContain("not on PATH");
		expect(existsSync(join(dir, "xcsh-hooks"))).toBe(true);

		const missing = await install(["--dir", dir, "--version", "9.9.9"], { HOME: home, XCSH_HOOKS_RELEASE: release });
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain(`lists no asset for ${hostPlatform()} version 9.9.9`);
	}, 60_000);

	test("a corrupted asset is refused and nothing is installed", async () => {
		const home = freshHome();
		const corrupt = join(root, "corrupt");
		mkdirSync(corrupt);
		const name = assetName(VERSION, hostPlatform());
		copyFileSync(join(release, "SHA256SUMS"), join(corrupt, "SHA256SUMS"));
		const bytes = readFileSync(join(release, name));
		bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff; // one flipped byte at the end
		writeFileSync(join(corrupt, name), bytes);
		const run = await install([], { HOME: home, XCSH_HOOKS_RELEASE: corrupt });
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`checksum mismatch for ${name}`);
		expect(run.stderr).toContain("nothing installed");
		expect(existsSync(join(home, ".local", "bin"))).toBe(false);
	}, 60_000);

	test("a SHA256SUMS that lists an asset twice, or has a line it cannot read, is refused and nothing is installed", async () => {
		const name = assetName(VERSION, hostPlatform());
		const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
		const line = sums.split("\n").find((l) => l.endsWith(`  ${name}`)) as string;
		const other = `${"0".repeat(64)}  ${name}`;
		const cases: Array<[string, string]> = [
			// The real line first: a reader taking the first match would install the good asset; still refused.
			[`${sums}${other}\n`, `${name} is listed twice`],
			[`${sums.replace(line, `${line}\n${line.replace("  ", " *")}`)}`, `${name} is listed twice`],
			[`${sums}garbage\n`, `cannot be read (garbage)`],
			[`${sums}${"a".repeat(63)}  xcsh-hooks-9.9.9-linux-x64\n`, "cannot be read"],
			[`${sums}${"a".repeat(64)}  ../xcsh-hooks-9.9.9-linux-x64\n`, "cannot be read"],
			[sums.replace(/\n/g, "\r\n"), "line 1 cannot be read"],
		];
		for (const [text, message] of cases) {
			const home = freshHome();
			const folder = mkdtempSync(join(root, "sums-"));
			copyFileSync(join(release, name), join(folder, name));
			writeFileSync(join(folder, "SHA256SUMS"), text);
			const run = await install([], { HOME: home, XCSH_HOOKS_RELEASE: folder });
			expect(run.stderr).toContain(message);
			expect(run.stderr).toContain("nothing installed");
			expect(run.code).toBe(1);
			expect(existsSync(join(home, ".local", "bin"))).toBe(false);
		}
	}, 60_000);

	test("a release folder without SHA256SUMS, or an unknown option, is an error that names it", async () => {
		const home = freshHome();
		const empty = mkdtempSync(join(root, "empty-"));
		const run = await install([], { HOME: home, XCSH_HOOKS_RELEASE: empty });
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`${empty}/SHA256SUMS: no such file`);
		const bad = await install(["--prefix", "x"], { HOME: home, XCSH_HOOKS_RELEASE: release });
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain("unknown option --prefix");
	}, 60_000);
});
