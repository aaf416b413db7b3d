/**
 * A cheap look at the raw command line before any parse: a line in which no word names a program
 * a rule judges, or one the analyzer unwraps (a runner, a shell, an interpreter, `eval`…), and
 * which matches no rule's `when`, cannot be blocked, so it needs no parse — and a process whose
 * lines are all like that never loads the parser (about 40 ms).
 *
 * Sound by construction: quotes and backslashes are dropped (`r''m` and `\rm` read `rm`), every
 * word is split at operators and slashes (`/bin/rm` gives `rm`), and anything that could make a
 * program name at run time — an expansion, a glob, a brace, a non-ASCII letter — sends the line to
 * the parser.
 */
import { embeds } from "./embedded.ts";
import { interpreterOf } from "./interpreters.ts";
import { RUNNERS } from "./runners.ts";
import { SHELLS } from "./shells.ts";
import type { ShellRule } from "./types.ts";

/** Programs the analyzer itself reads into (what they run is what rules judge); `npm exec`, `pnpm dlx`, `bun x` by their subcommand. */
const ANALYZER = ["eval", "source", ".", "coproc", "find", "dlx", "x", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "trap"];

/** Characters that may make a program name only known at run time, or a look-alike of one. */
const RUNTIME = /[$`*?[\]{}]|[^\x00-\x7f]/;

/** A line the shell may read differently from a list of words: compound commands, or one that looks unfinished (it is parsed, and refused when broken). */
const STRUCTURE =
	/(?:^|[\s;&|(])(?:if|then|else|elif|fi|case|esac|for|select|while|until|do|done|function|in)(?=$|[\s;&|)])|^\s*[;&|)]|[;&|(]\s*$|;;|<<|[<>]\s*$/;

function unbalanced(line: string): boolean {
	const plain = line.replace(/\\./gs, "");
	let quote = "";
	let depth = 0;
	for (const char of plain) {
		if (quote) {
			if (char === quote) quote = "";
		} else if (char === "'" || char === '"') quote = char;
		else if (char === "(") depth++;
		else if (char === ")" && --depth < 0) return true;
	}
	return quote !== "" || depth !== 0;
}

/** Decides, per line, whether the rules could block it; `undefined` when every line must be parsed. */
export function prescanFor(rules: readonly ShellRule[]): ((line: string) => boolean) | undefined {
	const names = new Set<string>([...Object.keys(RUNNERS), ...SHELLS, ...ANALYZER]);
	const whens: RegExp[] = [];
	for (const rule of rules) {
		if (rule.programs) for (const program of rule.programs) names.add(program.toLowerCase());
		else if (rule.when) whens.push(rule.when);
		else return undefined;
	}
	const named = (word: string) => {
		const lower = word.toLowerCase();
		return names.has(lower) || interpreterOf(lower) !== undefined || embeds(lower);
	};
	return (line) => {
		if (RUNTIME.test(line) || STRUCTURE.test(line) || unbalanced(line)) return true;
		// A rule's text is looked for as written and as the shell reads it (`d''ev`, `\dev` are `dev`).
		const plain = line.replace(/['"\\]/g, "");
		if (whens.some((when) => when.test(line) || when.test(plain))) return true;
		return line
			.replace(/\\\n/g, "")
			.replace(/['"\\]/g, "")
			.split(/[\s;&|()<>=/,:!]+/)
			.some((word) => word !== "" && named(word));
	};
}
