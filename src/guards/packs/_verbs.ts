/** Rules on the verbs of a command-line tool (`gh repo delete`, `vault kv destroy`), for the opt-in packs. */
import { type OptionSpec, parseOptions } from "../options.ts";
import type { ShellCommand, ShellRule } from "../types.ts";

/** The words of a command that are not options (option values named in `spec` skipped). */
export const verbsOf = (command: ShellCommand, spec: OptionSpec = {}) => parseOptions(command.args, spec).positionals;

/** `"kv (delete|destroy)"` → its words; a space inside parentheses belongs to the word. */
function words(verb: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let word = "";
	for (const c of verb) {
		if (c === " " && depth === 0) {
			out.push(word);
			word = "";
			continue;
		}
		if (c === "(") depth++;
		if (c === ")") depth--;
		word += c;
	}
	return [...out, word];
}

/**
 * A rule that blocks when the command's first words match one of `verbs`: `"repo delete"`,
 * `"kv (delete|destroy)"`, each word a regular expression matched whole and case-sensitively.
 */
export function verbRule(
	id: string,
	reason: string,
	programs: readonly string[],
	verbs: readonly string[],
	options: OptionSpec & { dryRun?: readonly string[] } = {},
): ShellRule {
	const patterns = verbs.map((verb) => words(verb).map((word) => new RegExp(`^(?:${word})$`)));
	return {
		id,
		reason,
		programs,
		test(command) {
			if (
				options.dryRun?.some((flag) =>
					command.args.some((arg) => arg === flag || (arg.startsWith(`${flag}=`) && !/=(?:false|0|no)$/i.test(arg))),
				)
			)
				return false;
			const words = verbsOf(command, options);
			for (const pattern of patterns)
				if (pattern.every((word, i) => word.test(words[i] ?? "\u0000")))
					return `${reason} (${command.program} ${words.slice(0, pattern.length).join(" ")})`;
			return false;
		},
	};
}

/** An HTTP method a curl/wget/httpie command line uses, upper-cased; `GET` when none is given. */
export function httpMethod(command: ShellCommand): string {
	const args = command.args;
	if (command.program === "http" || command.program === "https" || command.program === "xh") {
		const first = args.find((arg) => !arg.startsWith("-"));
		return first && /^[A-Za-z]+$/.test(first) ? first.toUpperCase() : "GET";
	}
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "-X" || arg === "--request" || arg === "--method") return (args[i + 1] ?? "").toUpperCase();
		const m = /^(?:-X|--request=|--method=)(.+)$/.exec(arg);
		if (m) return (m[1] as string).toUpperCase();
	}
	return args.some((arg) => /^(?:-d|--data.*|-F|--form|--post-data.*|--json)$/.test(arg.split("=")[0] as string)) ? "POST" : "GET";
}

/** The URLs of a curl/wget/httpie command line. */
export const urlsOf = (command: ShellCommand) =>
	command.args.filter((arg) => /^(?:https?:\/\/|localhost[:/]|127\.0\.0\.1[:/]|\[::1\][:/]|[\w.-]+:\d+(?:\/|$))/.test(arg));

export const HTTP_CLIENTS = ["curl", "wget", "http", "https", "xh", "curlie"];
