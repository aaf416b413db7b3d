/**
 * The library type-checks in a consumer's project under a strict tsconfig (issue 37, item 7): every
 * public entry point (`xcsh-hooks`, `/hooks`, `/testing`, `/guards`) imported whole, checked by tsc with
 * `strict`, `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes` and `moduleResolution: "bundler"`.
 * The package ships its TypeScript sources, which import each other with `.ts` extensions, so the
 * consumer's tsconfig needs `allowImportingTsExtensions` (TypeScript refuses such imports without it).
 */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** The consumer tsconfig the docs give. */
export const CONSUMER_TSCONFIG = {
	compilerOptions: {
		target: "ESNext",
		module: "ESNext",
		moduleResolution: "bundler",
		lib: ["ESNext"],
		types: ["bun"],
		strict: true,
		noUncheckedIndexedAccess: true,
		exactOptionalPropertyTypes: true,
		allowImportingTsExtensions: true,
		verbatimModuleSyntax: true,
		noEmit: true,
		skipLibCheck: true,
	},
	include: ["*.ts"],
};

test("a strict consumer type-checks every public export of the package", () => {
	const dir = tempDir();
	mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
	symlinkSync(ROOT, join(dir, "node_modules", "xcsh-hooks"));
	symlinkSync(join(ROOT, "node_modules", "@types", "bun"), join(dir, "node_modules", "@types", "bun"));
	writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(CONSUMER_TSCONFIG));
	const { exports } = require(join(ROOT, "package.json")) as { exports: Record<string, string> };
	const names = Object.keys(exports).map((key) => (key === "." ? "xcsh-hooks" : `xcsh-hooks/${key.slice(2)}`));
	expect(names).toEqual(["xcsh-hooks", "xcsh-hooks/hooks", "xcsh-hooks/testing", "xcsh-hooks/guards"]);
	writeFileSync(
		join(dir, "all.ts"),
		`${names.map((name, i) => `import * as m${i} from "${name}";`).join("\n")}\nexport const all = [${names.map((_, i) => `m${i}`).join(", ")}];\n`,
	);
	const tsc = Bun.spawnSync([process.execPath, join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
		cwd: dir,
		env: { PATH: process.env.PATH ?? "", HOME: dir },
	});
	const output = tsc.stdout.toString() + tsc.stderr.toString();
	expect(output.split("\n").filter((line) => line.includes("error TS"))).toEqual([]);
	expect(tsc.exitCode).toBe(0);
}, 120_000);
