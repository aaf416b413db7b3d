import { type Agent, isAgent } from "./agents.ts";
import { INSTALL_MARKER, MANAGED_FLAG } from "./marker.ts";

/*
 * The one recogniser of the command entries `install` writes: `install`/`uninstall` edit only these,
 * and the agent config providers (src/discovery/agent-config/read-config.ts) skip them, since running them from a
 * bridge would call a bridge again.
 */

/**
 * Whether `command` (a shell command line) is an entry `install` wrote for `agent` (any agent when
 * omitted). See {@link isBridgeArgv} for the forms recognised.
 */
export function isBridgeCommand(command: unknown, agent?: Agent): boolean {
	if (typeof command !== "string") return false;
	const words = shellWords(command);
	return words !== undefined && isBridgeArgv(words, agent);
}

/**
 * Whether an argv is an entry `install` wrote: `<program…> bridge <agent> [--managed] --installed-by=xcsh-hooks`
 * (any program: a moved executable, a source checkout, a `--command` override). Entries written before
 * the marker existed are recognised only in the exact forms that version wrote: `<xcsh-hooks executable>
 * bridge <agent>` (a file named `xcsh-hooks`, `xcsh-hooks.exe` or a release asset `xcsh-hooks-<version>-…`,
 * optionally through `bunx`/`npx`), and `<bun> --no-env-file --config=/dev/null <…/src/cli.ts> bridge
 * <agent>`. A command that merely ends in `bridge <agent>` is the user's own.
 */
export function isBridgeArgv(words: readonly string[], agent?: Agent): boolean {
	const n = words.length;
	const names = (word: string | undefined) => word !== undefined && (agent === undefined ? isAgent(word) : word === agent);
	if (n >= 5 && words[n - 1] === INSTALL_MARKER && words[n - 2] === MANAGED_FLAG) return words[n - 4] === "bridge" && names(words[n - 3]);
	if (n >= 4 && words[n - 1] === INSTALL_MARKER) return words[n - 3] === "bridge" && names(words[n - 2]);
	if (n < 3 || words[n - 2] !== "bridge" || !names(words[n - 1])) return false;
	const program = words.slice(0, n - 2);
	if (program.length === 1) return isOurExecutable(program[0] as string);
	if (program.length === 2) return /^(bunx|npx|pnpx)$/.test(baseName(program[0] as string)) && isOurPackage(program[1] as string);
	return (
		program.length === 4 &&
		program[1] === "--no-env-file" &&
		program[2] === "--config=/dev/null" &&
		/[/\\]src[/\\]cli\.ts$/.test(program[3] as string)
	);
}

function baseName(path: string): string {
	return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/** `xcsh-hooks`, `xcsh-hooks.exe`, or a release asset `xcsh-hooks-0.4.0-linux-x64[.exe]`, in any folder. */
function isOurExecutable(path: string): boolean {
	return /^xcsh-hooks(\.exe|-v?\d[\w.+-]*)?$/.test(baseName(path));
}

function isOurPackage(word: string): boolean {
	return /^xcsh-hooks(@[\w.+-]+)?$/.test(word);
}

/**
 * The words of a command line that is one plain command, as a POSIX shell splits them (single and
 * double quotes, backslash escapes); `undefined` for anything else — an operator, a redirection, an
 * expansion or an unclosed quote — since no such line is one `install` wrote.
 */
export function shellWords(line: string): string[] | undefined {
	const words: string[] = [];
	let word: string | undefined;
	for (let i = 0; i < line.length; i++) {
		const c = line[i] as string;
		if (c === " " || c === "\t") {
			if (word !== undefined) words.push(word);
			word = undefined;
		} else if (c === "'") {
			const close = line.indexOf("'", i + 1);
			if (close < 0) return undefined;
			word = (word ?? "") + line.slice(i + 1, close);
			i = close;
		} else if (c === '"') {
			let text = "";
			for (i++; i < line.length && line[i] !== '"'; i++) {
				const d = line[i] as string;
				if (d === "$" || d === "`") return undefined;
				if (d === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) text += line[++i];
				else text += d;
			}
			if (i >= line.length) return undefined;
			word = (word ?? "") + text;
		} else if (c === "\\") {
			if (i + 1 >= line.length) return undefined;
			word = (word ?? "") + line[++i];
		} else if ((c === "~" || c === "#") && word !== undefined) {
			word += c; // inside a word, plain; at its start, a home expansion or a comment
		} else if (";&|<>()$`*?[]{}~#\n\r".includes(c)) return undefined;
		else word = (word ?? "") + c;
	}
	if (word !== undefined) words.push(word);
	return words;
}
