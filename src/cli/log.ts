import { isXcshError } from "../errors.ts";
import { stat } from "node:fs/promises";
import {
	decisionLogFile,
	decisionParts,
	jsonLine,
	type LoggedDecision,
	matchesSession,
	parseDecisionLines,
	previousLogFile,
} from "../decisions/index.ts";
import { isTerminal } from "../process/tty.ts";
import { resolvePath } from "../paths.ts";
import { cliError, EXIT_OK, writeErr, writeOut, defineCommand } from "./_shared.ts";
import { warn } from "./_say.ts";
import { HELP_WIDTH } from "./help.ts";
import { wrapHard } from "./_layout.ts";

const POLL_MS = 200;
const NEWLINE = 0x0a;

interface View {
	file: string;
	json: boolean;
	session?: string | undefined;
	agent?: string | undefined;
	decision?: string | undefined;
	/** Only entries at or after this time (ms since the epoch). */
	since?: number | undefined;
}

/** How many entries `log` shows at a terminal when `-n` is not given; a pipe gets them all. */
export const TERMINAL_LINES = 20;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: a duration back from now (`30s`, `10m`, `2h`, `1d`, `1w`) or a date (`2026-05-01`, ISO time). */
export function parseSince(value: string, now = Date.now()): number {
	const duration = /^(\d+)\s*([smhdw])$/.exec(value.trim());
	if (duration) return now - Number(duration[1]) * (UNITS[duration[2] as string] as number);
	const date = /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
	if (Number.isNaN(date))
		throw cliError(`--since ${JSON.stringify(value)}: expected a duration (30s, 10m, 2h, 1d, 1w) or a date (2026-05-01, 2026-05-01T12:00)`);
	return date;
}

/** `-n`: a count of entries, or `all`. */
function parseCount(value: string): number {
	if (value === "all") return Number.POSITIVE_INFINITY;
	if (!/^\d+$/.test(value) || Number(value) === 0)
		throw cliError(`-n ${JSON.stringify(value)}: expected a positive number of entries, or all`);
	return Number(value);
}

/** The filters of `view` in words (`session ab12, agent claude`), "" when there are none. */
function filtersText(view: View): string {
	const parts = [
		view.session !== undefined ? `session ${view.session}` : "",
		view.agent !== undefined ? `agent ${view.agent}` : "",
		view.decision !== undefined ? `decision ${view.decision}` : "",
		view.since !== undefined ? `since ${new Date(view.since).toISOString()}` : "",
	];
	return parts.filter(Boolean).join(", ");
}

/** Whether a logged entry passes the filters of `view`. */
function passes(view: View, d: LoggedDecision): boolean {
	if (!matchesSession(d.entry, view.session)) return false;
	if (view.agent !== undefined && d.entry.agent !== view.agent) return false;
	if (view.decision !== undefined && d.entry.decision !== view.decision) return false;
	if (view.since !== undefined && !(Date.parse(d.entry.time) >= view.since)) return false;
	return true;
}

/** The file's size, or `undefined` when it is missing; anything but a regular file is refused. */
async function sizeOf(file: string): Promise<number | undefined> {
	try {
		const info = await stat(file);
		if (!info.isFile()) throw cliError(`${file} is not a regular file; the decision log must be a file`);
		return info.size;
	} catch (error) {
		if (isXcshError(error)) throw error;
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw cliError(`cannot read ${file}: ${(error as Error).message}`);
	}
}

/** The decisions in `text` (complete lines of `file` numbered from `firstLine`) that pass the filters; warnings go to stderr. */
async function matching(view: View, text: string, file: string, firstLine: number): Promise<LoggedDecision[]> {
	const { decisions, warnings } = parseDecisionLines(text, file, firstLine);
	for (const warning of warnings) await warn(warning);
	return decisions.filter((d) => passes(view, d));
}

/** Indent of the lines that carry on an entry (its reason and hook) below its columns. */
const MORE = "    ";

/**
 * One entry as `log` shows it, in at most 80 columns: one line when it fits, else the columns and
 * then the reason and hook wrapped below them (`grep deny` still finds the entry's first line).
 */
export function shownDecision(entry: LoggedDecision["entry"]): string {
	const [head, tail] = decisionParts(entry);
	if (!tail || Bun.stringWidth(`${head} ${tail}`) <= HELP_WIDTH) return tail ? `${head} ${tail}` : head;
	// Columns wider than the terminal (a long tool name) wrap too, without their padding.
	const [first = "", ...rest] = Bun.stringWidth(head) <= HELP_WIDTH ? [head] : wrapHard(head, HELP_WIDTH);
	const more = rest.length > 0 ? `${rest.join(" ")} ${tail}` : tail;
	return [first, ...wrapHard(more.trim(), HELP_WIDTH - MORE.length).map((line) => MORE + line)].join("\n");
}

/** Prints `decisions` as `log` shows them: one JSON line (JSON Lines) or one readable entry each. */
async function print(view: View, decisions: LoggedDecision[]): Promise<void> {
	if (decisions.length > 0) await writeOut(decisions.map((d) => (view.json ? jsonLine(d) : shownDecision(d.entry))).join("\n"));
}

/** Prints the matching decisions in `text`; resolves how many were shown. */
async function show(view: View, text: string, firstLine: number): Promise<number> {
	const shown = await matching(view, text, view.file, firstLine);
	await print(view, shown);
	return shown.length;
}

const countLines = (bytes: Uint8Array) => bytes.reduce((n, b) => (b === NEWLINE ? n + 1 : n), 0);

/** The exit code of a command a signal ended, as a shell reports it: 128 + the signal's number. */
const ENDED_BY = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Prints lines appended after `offset` until SIGINT/SIGTERM; a truncated (rotated) file is read from its
 * start. Resolves 130 after SIGINT (Ctrl-C) and 143 after SIGTERM, as a shell reports a command they ended.
 */
async function follow(view: View, start: { offset: number; line: number }): Promise<number> {
	let { offset, line } = start;
	let stopped: number | undefined;
	for (const signal of ["SIGINT", "SIGTERM"] as const)
		process.once(signal, () => {
			stopped ??= ENDED_BY[signal];
		});
	while (stopped === undefined) {
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
	return stopped;
}

/** `xcsh-hooks log`: prints the decision log, optionally following it. */
export const logCommand = defineCommand({
	meta: {
		name: "log",
		description: "Show the decision log: what the guards allowed or denied",
		details:
			"Show the decision log (~/.xcsh/agent/decisions.jsonl): what the guards allowed, denied or rewrote. " +
			`At a terminal the last ${TERMINAL_LINES} entries, in a pipe all of them; -n, --since, --agent, --decision and --session filter. ` +
			"The log is rotated at 10 MiB (the previous file is kept as decisions.jsonl.1 and read too).",
	},
	args: {
		lines: {
			type: "string",
			alias: ["n"],
			description: `Show the last N entries, or all (default at a terminal: ${TERMINAL_LINES})`,
			valueHint: "N",
		},
		since: { type: "string", description: "Only entries since a duration ago (30s, 10m, 2h, 1d, 1w) or a date", valueHint: "when" },
		agent: { type: "string", description: "Only this agent's entries (claude, codex, …; cli for emit and run)", valueHint: "name" },
		decision: { type: "enum", options: ["allow", "deny", "rewrite", "ask"], description: "Only entries with this decision" },
		follow: {
			type: "boolean",
			alias: ["f"],
			description: "Keep printing decisions as they are logged (Ctrl-C stops: exit 130; SIGTERM: 143)",
		},
		session: { type: "string", description: "Only this session (its id or the start of it)", valueHint: "id" },
		json: { type: "boolean", description: "Print JSON Lines: each entry as stored, one JSON object per line" },
		file: { type: "string", description: "Read this log file instead", valueHint: "path" },
	},
	async run({ args }) {
		if (args.session !== undefined && !args.session.trim()) throw cliError("--session needs a session id (or the start of one)");
		if (args.agent !== undefined && !args.agent.trim()) throw cliError("--agent needs an agent name (claude, codex, …, or cli)");
		const file = args.file ? resolvePath(args.file, process.cwd()) : decisionLogFile();
		const view: View = {
			file,
			json: Boolean(args.json),
			session: args.session,
			agent: args.agent,
			decision: args.decision,
			since: args.since === undefined ? undefined : parseSince(args.since),
		};
		const limit = args.lines !== undefined ? parseCount(args.lines) : isTerminal(1) ? TERMINAL_LINES : Number.POSITIVE_INFINITY;
		const size = await sizeOf(file);
		// The previous file (kept by the last rotation) comes first: the entries stay in time order.
		const previous = previousLogFile(file);
		const before =
			(await sizeOf(previous).catch(() => undefined)) === undefined
				? []
				: await matching(view, await Bun.file(previous).text(), previous, 1);
		if (size === undefined && before.length === 0) {
			await (view.json ? writeErr : writeOut)(`No decisions logged yet (${file} does not exist).`);
			return args.follow ? follow(view, { offset: 0, line: 1 }) : EXIT_OK;
		}
		const bytes = size === undefined ? new Uint8Array() : await Bun.file(file).slice(0, size).bytes();
		// Without --follow a last line lacking its newline is shown (or reported as torn); with it, it waits.
		const end = args.follow ? bytes.lastIndexOf(NEWLINE) + 1 : bytes.length;
		const read = bytes.subarray(0, end);
		const all = [...before, ...(await matching(view, new TextDecoder().decode(read), file, 1))];
		const shown = all.slice(Math.max(0, all.length - limit));
		await print(view, shown);
		if (shown.length === 0 && !args.follow)
			await (view.json ? writeErr : writeOut)(
				filtersText(view) ? `No decisions for ${filtersText(view)} in ${file}.` : `No decisions in ${file}.`,
			);
		return args.follow ? follow(view, { offset: end, line: 1 + countLines(read) }) : EXIT_OK;
	},
});
