import { XcshError } from "../errors.ts";
import { type Static, Type } from "@sinclair/typebox";
import { timerDelay } from "../timeouts.ts";
import { execCommand } from "../exec/exec-command.ts";
import type { AgentTool } from "../hooks/types.ts";
import { formatBytes } from "./_files.ts";
import { defineTool } from "./define.ts";

/** Parameters of the `bash` tool. */
export const BashParamsSchema = Type.Object(
	{
		command: Type.String({ minLength: 1, description: "The command line, run with `bash -c`" }),
		timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Timeout in seconds (default 120)" })),
	},
	{ additionalProperties: false },
);
export type BashParams = Static<typeof BashParamsSchema>;

/** `details` of a `bash` result. */
export interface BashDetails {
	exitCode: number;
	killed: boolean;
	/** Set when the output shown was cut to its last {@link BASH_OUTPUT_LIMIT_BYTES}. */
	truncated?: boolean;
}

/** Options of {@link createBashTool}. */
export interface BashToolOptions {
	/** Default timeout when the call gives none, in milliseconds; `0` disables it. Default 120 000. */
	timeoutMs?: number;
}

/** Default timeout of a command: 120 s. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** The model sees at most the last 50 KB of a command's output. */
export const BASH_OUTPUT_LIMIT_BYTES = 50 * 1024;
/** Bytes kept per stream while the command runs; anything beyond is discarded, not buffered. */
const CAPTURE_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Creates the `bash` tool: runs `bash -c <command>` (or `/bin/sh -c`) in `cwd` with stdin closed.
 * The text shows stdout, then stderr, then `exit code N` when non-zero. A non-zero exit is a normal
 * result, not an error, so the model sees what the command printed; a command killed by the timeout
 * or the abort signal throws, with the tail of its output in the message.
 */
export function createBashTool(cwd: string, options: BashToolOptions = {}): AgentTool<BashParams, BashDetails> {
	// Looked up once per tool: `bash` on PATH when installed, else the POSIX shell.
	const shell = Bun.which("bash", { PATH: process.env.PATH ?? "" }) ?? "/bin/sh";
	return defineTool<BashParams, BashDetails>(cwd, {
		name: "bash",
		label: "Bash",
		description:
			"Run a shell command in the working directory (stdin closed). Returns stdout, then stderr, and the exit code when non-zero. " +
			`Output is cut to its last ${formatBytes(BASH_OUTPUT_LIMIT_BYTES)}. Optional timeout in seconds (default ${(options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS) / 1000}).`,
		parameters: BashParamsSchema,
		async run({ command, timeout }, { signal }) {
			const timeoutMs = timeout !== undefined ? timeout * 1000 : (options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS);
			const result = await execCommand(shell, ["-c", command], cwd, {
				timeout: timerDelay(timeoutMs),
				signal,
				maxOutputBytes: CAPTURE_LIMIT_BYTES,
			});
			const output = combineOutput(result.stdout, result.stderr);
			const shown = tail(output, BASH_OUTPUT_LIMIT_BYTES, result.truncated === true);
			if (result.killed) {
				const why = signal?.aborted ? "Command aborted" : `Command timed out after ${formatSeconds(timeoutMs)}`;
				throw new XcshError("COMMAND_FAILED", shown.text ? `${why}. Output before it was killed:\n${shown.text}` : `${why} (no output)`);
			}
			let text = shown.text;
			if (result.code !== 0) text += `${text === "" || text.endsWith("\n") ? "" : "\n"}exit code ${result.code}`;
			if (text === "") text = "(no output)";
			const details: BashDetails = { exitCode: result.code, killed: false };
			if (shown.truncated) details.truncated = true;
			return { content: [{ type: "text", text }], details };
		},
	});
}

/** stdout, then stderr on a line of its own. */
function combineOutput(stdout: string, stderr: string): string {
	if (!stderr) return stdout;
	if (!stdout) return stderr;
	return `${stdout}${stdout.endsWith("\n") ? "" : "\n"}${stderr}`;
}

/**
 * The last `limit` bytes of `text`, starting on a character (and, when one is near, a line) boundary,
 * behind a note saying how much was cut.
 */
function tail(text: string, limit: number, captureTruncated: boolean): { text: string; truncated: boolean } {
	const bytes = Buffer.from(text, "utf8");
	if (bytes.byteLength <= limit && !captureTruncated) return { text, truncated: false };
	let start = Math.max(0, bytes.byteLength - limit);
	while (start < bytes.byteLength && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
	let kept = bytes.subarray(start).toString("utf8");
	const newline = kept.indexOf("\n");
	if (start > 0 && newline !== -1 && newline < 1024 && newline < kept.length - 1) kept = kept.slice(newline + 1);
	const shown = formatBytes(Buffer.byteLength(kept));
	const note = captureTruncated
		? `[Output truncated: a stream exceeded ${formatBytes(CAPTURE_LIMIT_BYTES)}, so only its first ${formatBytes(CAPTURE_LIMIT_BYTES)} were kept; showing the last ${shown} of what was kept]`
		: `[Output truncated: showing the last ${shown} of ${formatBytes(bytes.byteLength)}]`;
	return { text: `${note}\n${kept}`, truncated: true };
}

function formatSeconds(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${+(ms / 1000).toFixed(3)} s`;
}
