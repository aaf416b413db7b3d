/** What a user sees when a call is blocked or refused, checked the same way for every fault. */
import type { Line, Run } from "./_cli.ts";

const show = (run: Run) =>
	`exit ${run.timedOut ? "(killed by the test's timeout)" : run.code} after ${Math.round(run.ms)} ms\n--- stdout:\n${run.stdout}\n--- stderr:\n${run.stderr}`;

function fail(what: string, run: Run): never {
	throw new Error(`${what}\n${show(run)}`);
}

const matches = (text: string, expected: string | RegExp) => (typeof expected === "string" ? text.includes(expected) : expected.test(text));

/** No stack trace and no `[object Object]` on stderr. */
export function expectNoStackTrace(run: Run): void {
	if (/\n\s+at .+:\d+|^\s+at /m.test(run.stderr)) fail("stack trace on stderr", run);
	if (run.stderr.includes("[object Object]")) fail("stderr prints [object Object]", run);
}

/** Exit `code` with one clear line naming each needle, no stack trace, within the test's time. */
export function expectCleanFailure(run: Run, code: number, ...needles: (string | RegExp)[]): void {
	if (run.timedOut) fail("the process hung", run);
	if (run.code !== code) fail(`expected exit ${code}`, run);
	expectNoStackTrace(run);
	for (const needle of needles) {
		const line = run.stderr.split("\n").find((l) => matches(l, needle));
		if (!line) fail(`no line of stderr matches ${String(needle)}`, run);
	}
}

/** One reason: a non-empty single line that matches `expected`. */
function checkReason(reason: unknown, expected: string | RegExp, run?: Run): string {
	const problem =
		typeof reason !== "string"
			? `the reason is ${JSON.stringify(reason)}, not a string`
			: !reason.trim()
				? "the reason is empty"
				: reason.includes("\n")
					? `the reason spans several lines: ${JSON.stringify(reason)}`
					: !matches(reason, expected)
						? `the reason ${JSON.stringify(reason)} does not match ${String(expected)}`
						: undefined;
	if (!problem) return reason as string;
	if (run) fail(problem, run);
	throw new Error(problem);
}

/**
 * `emit tool_call` blocked: exit 2; stdout is exactly one JSON document `{event, result, errors,
 * loadErrors}` with `result.block` true; stderr holds the reason on one line (with `onlyReason`,
 * nothing else). Returns the output.
 */
export function expectBlockedEmit(
	run: Run,
	reason: string | RegExp,
	options: { onlyReason?: boolean } = {},
): { event: any; result: any; errors: any[]; loadErrors: any[] } {
	if (run.timedOut) fail("emit hung", run);
	if (run.code !== 2) fail("expected exit 2 (blocked)", run);
	let output: any;
	try {
		output = JSON.parse(run.stdout);
	} catch (error) {
		fail(`stdout is not one JSON document (${(error as Error).message})`, run);
	}
	const keys = Object.keys(output ?? {})
		.sort()
		.join(",");
	if (keys !== "errors,event,loadErrors,result") fail(`stdout has keys ${keys}, expected errors,event,loadErrors,result`, run);
	if (output.result?.block !== true) fail("result.block is not true", run);
	const text = checkReason(output.result.reason, reason, run);
	if (!run.stderr.split("\n").some((line) => line.includes(text))) fail("stderr does not carry the reason on a line", run);
	if (options.onlyReason && run.stderr.trim() !== text) fail("stderr holds more than the reason", run);
	expectNoStackTrace(run);
	return output;
}

/**
 * `run <tool>` blocked: exit 2, `blocked: <reason>` on one line of stderr, and the tool did not run.
 * With `onlyReason`, that line is all of stderr.
 */
export function expectBlockedRun(run: Run, reason: string | RegExp, toolRan: () => boolean, options: { onlyReason?: boolean } = {}): void {
	if (run.timedOut) fail("run hung", run);
	if (toolRan()) fail("the tool ran (its marker file exists)", run);
	if (run.code !== 2) fail("expected exit 2 (blocked)", run);
	const line = run.stderr.split("\n").find((l) => l.startsWith("blocked: "));
	if (!line) fail('no "blocked: <reason>" line on stderr', run);
	checkReason(line.slice("blocked: ".length), reason, run);
	if (options.onlyReason && run.stderr.trim() !== line) fail("stderr holds more than the blocked line", run);
	expectNoStackTrace(run);
}

/** A `serve` toolCall answered `{block: true, reason}` with a one-line reason. */
export function expectServeBlock(line: Line, reason: string | RegExp): void {
	if (line.error) throw new Error(`toolCall answered with an error instead of a block: ${JSON.stringify(line)}`);
	if (line.result?.block !== true) throw new Error(`toolCall was not blocked: ${JSON.stringify(line)}`);
	const keys = Object.keys(line.result).sort().join(",");
	if (keys !== "block,reason") throw new Error(`toolCall result has keys ${keys}: ${JSON.stringify(line)}`);
	checkReason(line.result.reason, reason);
}
