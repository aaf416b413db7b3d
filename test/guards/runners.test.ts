/**
 * The runner table (src/guards/runners.ts), one test per entry: every program in it has examples in
 * corpus/runners.ts, and each example hides neither a destructive command (blocked) nor turns a
 * harmless one into a refusal (allowed). Also GNU getopt_long's reading, which the table relies on.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { type OptionTable, readArgs } from "../../src/guards/getopt.ts";
import { createShellGuard } from "../../src/guards/index.ts";
import { fullOptions } from "../../src/guards/program-options.ts";
import { RUNNERS } from "../../src/guards/runners.ts";
import { RUNNER_EXAMPLES } from "./corpus/runners.ts";

const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "runners-")));
const guard = createShellGuard();

test("every entry of the runner table has examples, and every example names an entry", () => {
	expect(Object.keys(RUNNERS).filter((name) => !RUNNER_EXAMPLES[name])).toEqual([]);
	expect(Object.keys(RUNNER_EXAMPLES).filter((name) => !RUNNERS[name])).toEqual([]);
});

describe("each runner is unwrapped", () => {
	for (const [name, forms] of Object.entries(RUNNER_EXAMPLES))
		test(name, async () => {
			const wrong: string[] = [];
			for (const form of forms) {
				const destructive = await guard.decide(form.replaceAll("%", "rm -rf /"), { cwd: project });
				if (destructive.rule !== "filesystem/recursive-delete") wrong.push(`${form}: ${destructive.rule ?? "allowed"}`);
				const harmless = await guard.decide(form.replaceAll("%", "ls -la"), { cwd: project });
				if (harmless.block) wrong.push(`${form} with ls: ${harmless.rule} ${harmless.reason}`);
			}
			expect(wrong).toEqual([]);
		});
});

test("getopt_long: prefixes, values attached or apart, optional values, clusters, the end of options", () => {
	const table: OptionTable = { short: "+ab:c::", long: { recursive: 0, "recursive-x": 0, force: 0, file: 1, color: 2 } };
	const read = readArgs(table, ["-ab", "v1", "-cX", "--fo", "--fi", "f.txt", "--col", "cmd", "--recursive"]);
	expect(read.options.map((o) => [o.name, o.value])).toEqual([
		["a", undefined],
		["b", "v1"],
		["c", "X"],
		["force", undefined],
		["file", "f.txt"],
		["color", undefined],
	]);
	expect(read.operands).toEqual([7, 8]); // `+`: options stop at the first operand
	expect(readArgs(table, ["--recursive"]).options[0]?.name).toBe("recursive"); // an exact name beats longer ones
	expect(readArgs(table, ["--recur"]).options[0]?.name).toBe("recur"); // ambiguous: left as written
	expect(readArgs({ short: "r" }, ["x", "-r", "--", "-f"], false).operands).toEqual([0, 3]);
	expect(fullOptions("rm", ["--recur", "--forc", "--", "--recur"])).toEqual(["--recursive", "--force", "--", "--recur"]);
	expect(fullOptions("rm", ["--no-pres", "/"])).toEqual(["--no-preserve-root", "/"]);
	expect(fullOptions("rm", ["--p"])).toEqual(["--preserve-root"]);
	expect(fullOptions("ls", ["--recur"])).toEqual(["--recur"]);
});
