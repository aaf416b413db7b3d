/**
 * Programs whose own language runs shell commands: `awk` (`system("…")`, `print | "…"`,
 * `"…" | getline`), `sed` (`e command`, `s/…/…/e`), and the shell's `trap 'cmd' EXIT`. What they
 * run is read when it is written out; when it is built at run time, it is code the guard cannot read.
 */
import { given, readArgs, optionValue } from "./getopt.ts";

/** What an embedded program runs: shell lines it can read, and what it cannot, in a few words. */
export interface Embedded {
	scripts: string[];
	unseen?: string | undefined;
}

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "original-awk", "goawk", "bwk", "onetrue-awk"]);
const VIMS = new Set(["vim", "vi", "nvim", "ex", "view", "vimdiff", "gvim", "rvim"]);

/** Whether `program` is one of the languages read here. */
export const embeds = (program: string) =>
	AWKS.has(program) || VIMS.has(program) || program === "gdb" || program === "sed" || program === "gsed" || program === "trap";

/** What `program args` runs, when it is `awk`, `sed` or `trap`. */
export function embedded(program: string, args: readonly string[]): Embedded | undefined {
	if (program === "trap") return trap(args);
	if (AWKS.has(program)) return awk(args);
	if (program === "sed" || program === "gsed") return sed(args);
	if (VIMS.has(program)) return editorCommands(args);
	if (program === "gdb") return debuggerCommands(args);
	return undefined;
}

/** `vim -c '!cmd'`, `vim +'r !cmd'`, `vim -c "call system('cmd')"`: the shell commands of its ex commands. */
function editorCommands(args: readonly string[]): Embedded {
	const out: Embedded = { scripts: [] };
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		const command = arg === "-c" || arg === "--cmd" ? args[++i] : arg.startsWith("+") ? arg.slice(1) : undefined;
		if (command === undefined) continue;
		for (const part of command.split(/\s*\|\s*(?=[:a-z])/)) {
			const bang =
				/^:*\s*(?:silent!?\s*|exe(?:cute)?\s*)?(?:\d*,?\d*|%)?\s*(?:r(?:ead)?\s*|w(?:rite)?\s*|te(?:rm(?:inal)?)?\s+)?!(.*)$/s.exec(part);
			const terminal = /^:*\s*te(?:rm(?:inal)?)?\s+(.+)$/s.exec(part);
			const call = /\b(?:system|systemlist|jobstart|termopen)\s*\(\s*(?:"((?:\\.|[^"\\])*)"|'([^']*)')?/.exec(part);
			if (bang) out.scripts.push(bang[1] as string);
			else if (terminal) out.scripts.push(terminal[1] as string);
			else if (call) {
				const literal = call[1] ?? call[2];
				if (literal === undefined) out.unseen = "an editor command that runs a shell command built at run time";
				else out.scripts.push(literal);
			}
		}
	}
	return out;
}

/** `gdb -ex 'shell cmd'`, `gdb -ex '!cmd'`, `--eval-command=…`: the shell commands it is told to run. */
function debuggerCommands(args: readonly string[]): Embedded {
	const out: Embedded = { scripts: [] };
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		const eq = /^--?(?:eval-command|init-eval-command)=(.*)$/s.exec(arg);
		const command = eq ? eq[1] : /^--?(?:ex|iex|eval-command|init-eval-command)$/.test(arg) ? args[++i] : undefined;
		const shell = command === undefined ? null : /^\s*(?:shell\s+|!)(.*)$/s.exec(command);
		if (shell) out.scripts.push(shell[1] as string);
	}
	return out;
}

/** `trap [--] ACTION SIGNAL…`: ACTION runs when a signal (or EXIT) comes; `-`, `''` and `-p`/`-l` run nothing. */
function trap(args: readonly string[]): Embedded {
	const read = readArgs({ short: "+lpP" }, args);
	if (given(read, "l", "p", "P")) return { scripts: [] };
	const operands = read.operands.map((at) => args[at] as string);
	if (operands.length < 2 || operands[0] === "-") return { scripts: [] };
	return { scripts: [operands[0] as string] };
}

const AWK_OPTIONS = {
	short: "F:v:f:e:i:l:E:bcCdDgMnNOpPrstVhLS",
	long: { file: 1, source: 1, include: 1, load: 1, exec: 1, assign: 1, "field-separator": 1, sandbox: 0, help: 0, version: 0 },
} as const;

/** The awk program's string literals blanked and its regexes removed, offsets kept. */
function maskAwk(code: string): string {
	return code
		.replace(/"(?:\\.|[^"\\\n])*"/g, (m) => `"${" ".repeat(m.length - 2)}"`)
		.replace(/(^|[(,~!{};&|\n]\s*)\/(?:\\.|[^/\\\n])*\//g, (m, lead: string) => lead + " ".repeat(m.length - lead.length));
}

function awk(args: readonly string[]): Embedded {
	const read = readArgs(AWK_OPTIONS, args);
	if (given(read, "sandbox", "S")) return { scripts: [] };
	const sources = read.options.filter((o) => o.name === "e" || o.name === "source").map((o) => o.value ?? "");
	if (sources.length === 0 && !given(read, "f", "file", "E", "exec")) {
		const first = read.operands[0];
		if (first !== undefined) sources.push(args[first] as string);
	}
	const out: Embedded = { scripts: [] };
	for (const code of sources) {
		const masked = maskAwk(code);
		// `system(X)`, `print … | X`, `print … |& X`, `X | getline`, `X |& getline`.
		const uses = [
			...[...masked.matchAll(/\bsystem\s*\(/g)].map((m) => ({ at: (m.index ?? 0) + m[0].length, before: false })),
			...[...masked.matchAll(/(?<![|&])\|&?(?!\|)(?!\s*getline\b)\s*/g)].map((m) => ({ at: (m.index ?? 0) + m[0].length, before: false })),
			...[...masked.matchAll(/\|&?\s*getline\b/g)].map((m) => ({ at: m.index ?? 0, before: true })),
		];
		for (const use of uses) {
			const literal = use.before
				? /"((?:\\.|[^"\\])*)"\s*$/.exec(code.slice(0, use.at))
				: /^\s*"((?:\\.|[^"\\])*)"\s*(?=[);}\n]|$)/.exec(code.slice(use.at));
			if (literal) out.scripts.push((literal[1] as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c)));
			else out.unseen = "an awk program that runs a command it builds at run time";
		}
	}
	return out;
}

const SED_OPTIONS = {
	short: "nrsuzEe:f:i::l:",
	long: {
		expression: 1,
		file: 1,
		"in-place": 2,
		"line-length": 1,
		"null-data": 0,
		"zero-terminated": 0,
		quiet: 0,
		silent: 0,
		"regexp-extended": 0,
		separate: 0,
		unbuffered: 0,
		posix: 0,
		debug: 0,
		sandbox: 0,
		"follow-symlinks": 0,
		binary: 0,
		help: 0,
		version: 0,
	},
} as const;

function sed(args: readonly string[]): Embedded {
	const read = readArgs(SED_OPTIONS, args);
	if (given(read, "sandbox")) return { scripts: [] };
	const sources = read.options.filter((o) => o.name === "e" || o.name === "expression").map((o) => o.value ?? "");
	if (sources.length === 0 && optionValue(read, "f", "file") === undefined) {
		const first = read.operands[0];
		if (first !== undefined) sources.push(args[first] as string);
	}
	const out: Embedded = { scripts: [] };
	for (const source of sources) sedScript(source, out);
	return out;
}

/** Reads a sed script's commands, noting the `e` ones. */
function sedScript(text: string, out: Embedded): void {
	let i = 0;
	const toEnd = () => {
		const end = text.indexOf("\n", i);
		const rest = text.slice(i, end < 0 ? text.length : end);
		i = end < 0 ? text.length : end + 1;
		return rest;
	};
	/** Skips a delimited part (`/re/`, the pieces of `s` and `y`), with escapes. */
	const part = (delimiter: string) => {
		while (i < text.length && text[i] !== delimiter) i += text[i] === "\\" ? 2 : 1;
		i++;
	};
	const address = () => {
		if (/\d/.test(text[i] ?? "")) while (/[\d~]/.test(text[i] ?? "")) i++;
		else if (text[i] === "$") i++;
		else if (text[i] === "/" || text[i] === "\\") {
			const delimiter = text[i] === "\\" ? (text[++i] as string) : "/";
			i++;
			part(delimiter);
			while (/[IM]/.test(text[i] ?? "")) i++;
		}
	};
	while (i < text.length) {
		while (/[\s;}]/.test(text[i] ?? "")) i++;
		if (i >= text.length) break;
		address();
		if (text[i] === ",") {
			i++;
			if (/[+~]/.test(text[i] ?? "")) i++;
			address();
		}
		while (/[\s!]/.test(text[i] ?? "")) i++;
		const command = text[i++];
		if (command === undefined) break;
		if (command === "e") {
			const line = toEnd().trim();
			if (line === "") out.unseen = "a sed script that runs its input as a command (e)";
			else out.scripts.push(line);
		} else if (command === "s") {
			const delimiter = text[i++] as string;
			part(delimiter);
			part(delimiter);
			let flags = "";
			while (i < text.length && !/[;\n}]/.test(text[i] as string)) {
				if (text[i] === "w") {
					toEnd();
					break;
				}
				flags += text[i++];
			}
			if (flags.includes("e")) out.unseen = "a sed script that runs what it substitutes as a command (s///e)";
		} else if (command === "y") {
			const delimiter = text[i++] as string;
			part(delimiter);
			part(delimiter);
		} else if (/[#:aicrRwWbtTv]/.test(command)) {
			if (/[btTv]/.test(command)) while (i < text.length && !/[;\n}]/.test(text[i] as string)) i++;
			else toEnd();
		} else if (command === "{") continue;
	}
}
