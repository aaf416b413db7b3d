/**
 * The library without the registry: the packed tarball is what a consumer gets. It holds README and
 * LICENSE, type-checks in a fresh project with a strict tsconfig, and its `bin` either starts the CLI
 * without loading the project's bunfig.toml/.env or, where there is no Bun, says how to get it.
 * Offline: the tarball is unpacked by hand and its dependencies are linked from this checkout.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
let root = "";
let tarball = "";
let consumer = "";
let entries: string[] = [];

function spawn(argv: string[], cwd: string, env: Record<string, string>) {
	const proc = Bun.spawnSync(argv, { cwd, env, stdout: "pipe", stderr: "pipe", timeout: 60_000 });
	return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "xcsh-hooks-pack-"));
	const packed = spawn([process.execPath, "pm", "pack", "--destination", root, "--quiet"], ROOT, {
		PATH: process.env.PATH ?? "",
		HOME: process.env.HOME ?? root,
	});
	if (packed.code !== 0) throw new Error(`bun pm pack failed:\n${packed.stdout}\n${packed.stderr}`);
	tarball = join(root, `xcsh-hooks-${pkg.version}.tgz`);
	entries = spawn(["tar", "tzf", tarball], root, { PATH: process.env.PATH ?? "", HOME: root })
		.stdout.trim()
		.split("\n");

	// A consumer as after `bun add xcsh-hooks`: the package unpacked, its dependencies and the type checker beside it.
	consumer = join(root, "consumer");
	const modules = join(consumer, "node_modules");
	mkdirSync(join(modules, "xcsh-hooks"), { recursive: true });
	spawn(["tar", "xzf", tarball, "-C", join(modules, "xcsh-hooks"), "--strip-components=1"], root, {
		PATH: process.env.PATH ?? "",
		HOME: root,
	});
	for (const dep of [...Object.keys(pkg.dependencies), "typescript", "@types/bun", "bun-types", "@types/node", "undici-types"]) {
		const from = join(ROOT, "node_modules", dep);
		if (!existsSync(from)) continue;
		mkdirSync(dirname(join(modules, dep)), { recursive: true });
		symlinkSync(from, join(modules, dep));
	}
	mkdirSync(join(modules, ".bin"));
	symlinkSync("../xcsh-hooks/bin/xcsh-hooks", join(modules, ".bin", "xcsh-hooks"));
	writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
	writeFileSync(
		join(consumer, "tsconfig.json"),
		JSON.stringify({
			compilerOptions: {
				target: "ESNext",
				module: "ESNext",
				moduleResolution: "bundler",
				lib: ["ESNext"],
				types: ["bun"],
				strict: true,
				exactOptionalPropertyTypes: true,
				noUncheckedIndexedAccess: true,
				allowImportingTsExtensions: true,
				verbatimModuleSyntax: true,
				noEmit: true,
				skipLibCheck: true,
			},
			include: ["*.ts"],
		}),
	);
	for (const file of ["embed.ts", "first-hook.ts", "first-hook.test.ts"]) copyFileSync(join(ROOT, "examples", file), join(consumer, file));
}, 60_000);

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

describe("the packed tarball", () => {
	test("holds the library, the bin, README.md and LICENSE, and no tests", () => {
		for (const file of [
			"package/package.json",
			"package/README.md",
			"package/LICENSE",
			"package/bin/xcsh-hooks",
			"package/src/index.ts",
			"package/src/cli.ts",
		])
			expect(entries).toContain(file);
		expect(entries.filter((e) => e.startsWith("package/test/"))).toEqual([]);
		const manifest = JSON.parse(readFileSync(join(consumer, "node_modules", "xcsh-hooks", "package.json"), "utf8"));
		expect(manifest.repository.url).toContain("github.com");
		expect(manifest.bin["xcsh-hooks"]).toBe("./bin/xcsh-hooks");
		expect(readFileSync(join(consumer, "node_modules", "xcsh-hooks", "LICENSE"), "utf8")).toContain("xcsh-hooks contributors");
	}, 60_000);

	/** tsc over the consumer with its tsconfig plus `extra` compiler options; resolves the error lines. */
	const typecheck = (extra: Record<string, boolean>) => {
		const config = JSON.parse(readFileSync(join(consumer, "tsconfig.json"), "utf8"));
		writeFileSync(
			join(consumer, "tsconfig.check.json"),
			JSON.stringify({ ...config, compilerOptions: { ...config.compilerOptions, ...extra } }),
		);
		const tsc = spawn(
			[process.execPath, join(consumer, "node_modules", "typescript", "bin", "tsc"), "-p", join(consumer, "tsconfig.check.json")],
			consumer,
			{
				PATH: process.env.PATH ?? "",
				HOME: root,
			},
		);
		return { code: tsc.code, errors: (tsc.stdout + tsc.stderr).split("\n").filter((l) => l.includes("error TS")) };
	};

	test("a fresh consumer (strict, noUncheckedIndexedAccess, moduleResolution bundler) type-checks the embedding example and a hook", () => {
		const { code, errors } = typecheck({ exactOptionalPropertyTypes: false });
		expect(errors).toEqual([]);
		expect(code).toBe(0);
	}, 60_000);

	// The package ships its .ts sources, so a consumer's exactOptionalPropertyTypes applies to them too.
	test("…and with exactOptionalPropertyTypes too (the package's own sources included)", () => {
		const { errors } = typecheck({ exactOptionalPropertyTypes: true });
		expect(errors.filter((l) => !l.startsWith("node_modules/xcsh-hooks/"))).toEqual([]); // the consumer's code is fine
		expect(errors).toEqual([]);
	}, 60_000);

	test("the consumer's hook test runs against the unpacked package", () => {
		const run = spawn([process.execPath, "test", "./first-hook.test.ts"], consumer, { PATH: process.env.PATH ?? "", HOME: root });
		expect(run.stderr).toContain(" 0 fail");
		expect(run.code).toBe(0);
	}, 60_000);
});

describe.skipIf(process.platform === "win32")("the package's bin", () => {
	const bin = () => join(consumer, "node_modules", ".bin", "xcsh-hooks");

	test("where only Node exists it says how to get Bun or the executable, and exits 1", () => {
		// A PATH with sh, the tools the script uses and node, but no bun.
		const path = join(root, "node-only-bin");
		mkdirSync(path, { recursive: true });
		for (const tool of ["sh", "dirname", "readlink", "cat", "node"]) {
			const found = Bun.which(tool);
			if (found && !existsSync(join(path, tool))) symlinkSync(found, join(path, tool));
		}
		const run = spawn([bin(), "--help"], consumer, { PATH: path, HOME: join(root, "no-bun-home") });
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("needs Bun (https://bun.sh)");
		expect(run.stderr).toContain("install.sh | sh");
		expect(run.stderr).not.toContain("No such file");
	}, 60_000);

	test("with Bun it runs the CLI, and a project's bunfig.toml preload and .env never load", () => {
		const project = join(root, "project");
		mkdirSync(project, { recursive: true });
		const marker = join(project, "PRELOAD-RAN");
		writeFileSync(join(project, "bunfig.toml"), 'preload = ["./pre.ts"]\n');
		writeFileSync(join(project, "pre.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");\n`);
		writeFileSync(join(project, ".env"), "NO_COLOR=\nXCSH_HOOKS_DEBUG=from-dotenv\n");
		const env = { PATH: process.env.PATH ?? "", HOME: join(root, "home") };
		const version = spawn([bin(), "--version"], project, env);
		expect(version.stdout.trim()).toBe(`xcsh-hooks ${pkg.version} (Bun ${Bun.version})`);
		expect(version.code).toBe(0);
		const list = spawn([bin(), "list"], project, env);
		expect(list.code).toBe(0);
		expect(list.stderr).not.toContain("bunfig.toml"); // started clean: no restart warning
		expect(existsSync(marker)).toBe(false);
	}, 60_000);
});
