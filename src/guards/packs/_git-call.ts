/**
 * A git command as git itself runs it: its global options (`-C dir`, `-c k=v`, `--git-dir x`…,
 * matched exactly, as git does), the configuration the line gives it (`-c`, `--config-env`,
 * `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`), and aliases
 * expanded the way git expands them — a `!` alias being a shell command line for the guard to read.
 */
import type { EnvValue, ShellCommand } from "../types.ts";
import { type GitOptions, parseGitOptions } from "./_git-options.ts";

/** Global options that take the next word as their value (`-C dir`), or `=value`. */
const GLOBAL_VALUE = new Set([
	"-C",
	"-c",
	"--git-dir",
	"--work-tree",
	"--namespace",
	"--super-prefix",
	"--config-env",
	"--attr-source",
	"--shallow-file",
]);
/** Global options after which git prints something and runs no subcommand. */
const GLOBAL_INERT = /^(?:-h|--help|-v|--version|--exec-path|--html-path|--man-path|--info-path|--list-cmds=.*)$/;

/** Git's own commands: an alias of the same name is ignored. */
const BUILTINS = new Set(
	`add am annotate apply archive backfill bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap
check-ref-format checkout checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config
count-objects credential describe diagnose diff diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack
filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep gui hash-object help hook
index-pack init instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base
merge-file merge-index merge-tree mergetool mktag mktree multi-pack-index mv notes pack-objects pack-refs prune prune-packed
pull push range-diff read-tree rebase receive-pack reflog refs remote repack replace replay request-pull rerere reset restore
rev-list rev-parse revert rm send-email send-pack shortlog show show-branch show-index show-ref sparse-checkout stash status
stripspace submodule switch symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info
upload-archive upload-pack var verify-commit verify-pack verify-tag version whatchanged worktree write-tree`.split(/\s+/),
);

/** A git command line, read as git reads it. */
export interface GitCall {
	/** The subcommand that runs, aliases expanded; `undefined` when none does (`git --version`). */
	name: string | undefined;
	args: string[];
	/** Configuration the line gives, keys normalised (`alias.x`, `remote.origin.push`), values as given. */
	config: Map<string, string | true>;
	/** Keys whose value is only known at run time; `*` when a key itself is (`-c "$X"`). */
	computedKeys: Set<string>;
	/** The aliases expanded on the way, outermost first. */
	aliases: string[];
	/** For a `!` alias: the shell command line it runs, with the arguments after it. */
	shell?: string | undefined;
}

/** `Section.Sub.Key` → `section.Sub.key`: section and key are case-insensitive, a subsection is not. */
export function configKey(key: string): string {
	const first = key.indexOf(".");
	const last = key.lastIndexOf(".");
	if (first < 0) return key.toLowerCase();
	return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}.${key.slice(last + 1).toLowerCase()}`;
}

/** Git's boolean reading of a configuration value. */
export function configBool(value: string | true | undefined): boolean | undefined {
	if (value === undefined) return undefined;
	if (value === true) return true;
	const v = value.trim().toLowerCase();
	if (["true", "yes", "on", "1"].includes(v)) return true;
	if (["false", "no", "off", "0", ""].includes(v)) return false;
	return /^-?\d+$/.test(v) ? Number(v) !== 0 : undefined;
}

/** Splits an alias value as git does: whitespace apart, single and double quotes, backslash escapes. */
export function splitCmdline(text: string): string[] {
	const words: string[] = [];
	let word = "";
	let inWord = false;
	let quote: string | undefined;
	for (let i = 0; i < text.length; i++) {
		const c = text[i] as string;
		if (c === "\\" && quote !== "'") {
			word += text[++i] ?? "";
			inWord = true;
		} else if (quote) {
			if (c === quote) quote = undefined;
			else word += c;
		} else if (c === "'" || c === '"') {
			quote = c;
			inWord = true;
		} else if (/\s/.test(c)) {
			if (inWord) words.push(word);
			word = "";
			inWord = false;
		} else {
			word += c;
			inWord = true;
		}
	}
	if (inWord) words.push(word);
	return words;
}

/** `GIT_CONFIG_PARAMETERS`: `'key'='value'` (or the older `'key=value'`) entries, shell single-quoted. */
function parseConfigParameters(text: string): Array<[string, string | true]> {
	const out: Array<[string, string | true]> = [];
	const quoted = /'((?:[^']|'\\'')*)'/y;
	let i = 0;
	const read = () => {
		quoted.lastIndex = i;
		const m = quoted.exec(text);
		if (!m) return undefined;
		i = quoted.lastIndex;
		return (m[1] as string).replaceAll("'\\''", "'");
	};
	while (i < text.length) {
		while (text[i] === " ") i++;
		if (i >= text.length) break;
		const key = read();
		if (key === undefined) break;
		if (text[i] === "=") {
			i++;
			out.push([key, read() ?? ""]);
		} else {
			const eq = key.indexOf("=");
			out.push(eq < 0 ? [key, true] : [key.slice(0, eq), key.slice(eq + 1)]);
		}
	}
	return out;
}

/** The configuration the environment gives git (`GIT_CONFIG_COUNT`…, `GIT_CONFIG_PARAMETERS`). */
function configFromEnv(env: Readonly<Record<string, EnvValue>>, config: Map<string, string | true>, computed: Set<string>): void {
	const params = env.GIT_CONFIG_PARAMETERS;
	if (params) {
		if (params.computed) computed.add("*");
		for (const [key, value] of parseConfigParameters(params.value)) config.set(configKey(key), value);
	}
	const count = env.GIT_CONFIG_COUNT;
	if (!count) return;
	if (count.computed) computed.add("*");
	const n = Number.parseInt(count.value, 10);
	for (let i = 0; i < (Number.isFinite(n) ? Math.min(n, 256) : 0); i++) {
		const key = env[`GIT_CONFIG_KEY_${i}`];
		const value = env[`GIT_CONFIG_VALUE_${i}`];
		if (!key) continue;
		if (key.computed) computed.add("*");
		else if (value?.computed) computed.add(configKey(key.value));
		config.set(configKey(key.value), value?.value ?? "");
	}
}

/** Reads git's global options from `args[start…]`; returns where the subcommand starts (-1: none runs). */
function globals(
	args: readonly string[],
	computed: readonly boolean[],
	env: Readonly<Record<string, EnvValue>>,
	config: Map<string, string | true>,
	computedKeys: Set<string>,
): number {
	const set = (pair: string, isComputed: boolean) => {
		const eq = pair.indexOf("=");
		const key = configKey(eq < 0 ? pair : pair.slice(0, eq));
		// A computed word: its key is known when the `$` comes after the `=`.
		if (isComputed) computedKeys.add(eq > 0 && !/[$`]/.test(pair.slice(0, eq)) ? key : "*");
		config.set(key, eq < 0 ? true : pair.slice(eq + 1));
	};
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (GLOBAL_INERT.test(arg)) return -1;
		const eq = arg.indexOf("=");
		const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
		if (GLOBAL_VALUE.has(name)) {
			const value = name === arg ? (args[++i] ?? "") : arg.slice(eq + 1);
			const valueComputed = computed[i] === true;
			if (name === "-c") set(value, valueComputed);
			if (name === "--config-env") {
				// `--config-env=key=ENVVAR`: the value is that variable's.
				const at = value.indexOf("=");
				const variable = env[value.slice(at + 1)];
				if (at > 0) set(`${value.slice(0, at)}=${variable?.value ?? ""}`, variable === undefined || variable.computed);
			}
			continue;
		}
		if (arg.startsWith("-")) continue;
		return i;
	}
	return -1;
}

/** The shell-quoted form of argument words, appended to a `!` alias as git does. */
const quoteWords = (words: readonly string[]) => words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");

/** How git runs `command` (a `git …` command): globals read, configuration gathered, aliases expanded. */
export function gitCall(command: ShellCommand): GitCall {
	const config = new Map<string, string | true>();
	const computedKeys = new Set<string>();
	const env = command.env ?? {};
	configFromEnv(env, config, computedKeys);
	const first = globals(command.args, command.computed, env, config, computedKeys);
	const call: GitCall = { name: undefined, args: [], config, computedKeys, aliases: [] };
	if (first < 0) return call;
	let name = command.args[first] as string;
	let args = command.args.slice(first + 1);
	for (let depth = 0; depth < 16; depth++) {
		const alias = BUILTINS.has(name) ? undefined : config.get(`alias.${name.toLowerCase()}`);
		if (typeof alias !== "string") break;
		call.aliases.push(name);
		if (alias.startsWith("!")) {
			call.shell = args.length > 0 ? `${alias.slice(1)} ${quoteWords(args)}` : alias.slice(1);
			return { ...call, name: undefined, args };
		}
		const words = splitCmdline(alias);
		const inner = globals(
			words,
			words.map(() => false),
			env,
			config,
			computedKeys,
		);
		if (inner < 0) return call;
		name = words[inner] as string;
		args = [...words.slice(inner + 1), ...args];
	}
	return { ...call, name, args };
}

const calls = new WeakMap<ShellCommand, { call: GitCall; options: GitOptions | undefined }>();

/** The git call a command makes, with its subcommand's options parsed (cached per command). */
export function readGit(command: ShellCommand): { call: GitCall; options: GitOptions | undefined } {
	let found = calls.get(command);
	if (!found) {
		const call = gitCall(command);
		found = { call, options: call.name === undefined ? undefined : parseGitOptions(call.name, call.args) };
		calls.set(command, found);
	}
	return found;
}
