/**
 * `pi.exec` / execCommand timeouts (docs/contract.md#execcommand): a positive finite number of ms; one larger
 * than a timer can hold means "no timeout", never "kill at once"; zero, negative or NaN is an error
 * naming `timeout`. In-process: execCommand is what `pi.exec` calls.
 */
import { describe, expect, test } from "bun:test";
import { execCommand } from "../../src/exec/exec-command.ts";
import { tempDir } from "./_fixtures.ts";

describe("execCommand timeout", () => {
	for (const [name, timeout] of [
		["Infinity", Number.POSITIVE_INFINITY],
		["2 ** 31 (past what a timer holds)", 2 ** 31],
		["Number.MAX_SAFE_INTEGER", Number.MAX_SAFE_INTEGER],
	] as const)
		test.concurrent(`${name} means no timeout: sleep 1 completes, not killed`, async () => {
			const result = await execCommand("sleep", ["1"], tempDir(), { timeout });
			expect(result).toMatchObject({ code: 0, killed: false });
		}, 60_000);

	for (const [name, timeout] of [
		["0", 0],
		["-1", -1],
		["NaN", Number.NaN],
	] as const)
		test.concurrent(`${name} is refused with an error naming timeout, and nothing runs`, async () => {
			const started = performance.now();
			await expect(execCommand("sleep", ["1"], tempDir(), { timeout })).rejects.toThrow(/timeout/);
			expect(performance.now() - started).toBeLessThan(900); // refused up front, not after running sleep
		}, 60_000);
});
