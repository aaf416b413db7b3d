import { stat } from "node:fs/promises";
import { decisionLogFile, formatDecision, jsonLine, matchesSession, parseDecisionLines } from "../decisions/index.ts";
import { resolvePath } from "../paths.ts";
import { CliError, EXIT_OK, writeErr, writeOut, defineCommand } from "./_shared.ts";

const POLL_MS = 200;
const NEWLINE = 0x0a;

interface View {
	file: string;
	json: boolean;
	session?: string | undefined;
}

/** The file's size, or `undefined` when it is missing; anything but a regular file is refused. */
async function sizeOf(file: string): Promise<number | undefined> {
	try {
		const info = await stat(file);
		if (!info.isFile()) throw new CliError(`${file} is not a regular file; the decision log must be a file`);
		return info.size;
	} catch (error) {
		if (error instanceof CliError) throw error;
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
	}
}

/** Prints the decisions in `text` (complete lines numbered from `firstLine`); resolves how many were shown. */
async function show(view: View, text: string, firstLine: number): Promise<number> {
	const { decisions, warnings } = parseDecisionLines(text, view.file, firstLine);
	for (const warning of warnings) await writeErr(`warning: ${warning}`);
	const shown = decisions.filter((d) => matchesSession(d.entry, view.session));
	if (shown.length > 0) await writeOut(shown.map((d) => (view.json ? jsonLine(d) : formatDecision(d.entry))).join("\n"));
	return shown.length;
}

const countLines = (bytes: Uint8Array) => bytes.reduce((n, b) => (b === NEWLINE ? n + 1 : n), 0);

/** Prints lines appended after `offset` until SIGINT/SIGTERM; a truncated (rotated) file is read from its start. */
async function follow(view: View, start: { offset: number; line: number }): Promise<void> {
	let { offset, line } = start;
	let stopped = false;
	const stop = () => {
		stopped = true;
	};
	process.once("SIGINT", stop);
	process.once("SIGTERM", stop);
	while (!stopped) {
		await Bun.sleep(POLL_MS);
		const size = await sizeOf(view.file).catch(() => undefined);
		if (size === undefined) continue;
		if (size < offset) [offset, line] = [0, 1];
		if (size === offset) continue;
		const bytes = await Bun.file(view.file).slice(offset, size).bytes();
		const end = bytes.lastIndexOf(NEWLINE) + 1; // only whole lines: a line being written waits for its newline
		if (end === 0) continue;
		const complete = bytes.subarray(0, end);
		await show(view, new TextDecoder().decode(complete), line);
		offset += end;
		line += countLines(complete);
	}
}

/** `xcsh-hooks log`: prints the decision log, optionally following it. */
export const logCommand = defineCommand({
	meta: { name: "log", description: "Show the decision log (~/.xcsh/agent/decisions.jsonl): what the guards allowed, denied or rewrote" },
	args: {
		follow: { type: "boolean", alias: ["f"], description: "Keep printing decisions as they are logged (Ctrl-C stops)" },
		session: { type: "string", description: "Only this session (its id or the start of it)", valueHint: "id" },
		json: { type: "boolean", description: "Print the log's JSON lines as they are stored (control characters escaped)" },
		file: { type: "string", description: "Read this log file instead", valueHint: "path" },
	},
	async run({ args }) {
		if (args.session !== undefined && !args.session.trim()) throw new CliError("--session needs a session id (or the start of one)");
		const file = args.file ? resolvePath(args.file, process.cwd()) : decisionLogFile();
		const view: View = { file, json: Boolean(args.json), session: args.session };
		const size = await sizeOf(file);
		if (size === undefined) {
			await (view.json ? writeErr : writeOut)(`No decisions logged yet (${file} does not exist).`);
			if (args.follow) await follow(view, { offset: 0, line: 1 });
			return EXIT_OK;
		}
		const bytes = await Bun.file(file).slice(0, size).bytes();
		// Without --follow a last line lacking its newline is shown (or reported as torn); with it, it waits.
		const end = args.follow ? bytes.lastIndexOf(NEWLINE) + 1 : bytes.length;
		const read = bytes.subarray(0, end);
		const shown = await show(view, new TextDecoder().decode(read), 1);
		if (shown === 0 && !args.follow)
			await (view.json ? writeErr : writeOut)(
				view.session ? `No decisions for session ${view.session} in ${file}.` : `No decisions in ${file}.`,
			);
		if (args.follow) await follow(view, { offset: end, line: 1 + countLines(read) });
		return EXIT_OK;
	},
});
