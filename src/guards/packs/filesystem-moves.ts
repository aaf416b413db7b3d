/**
 * Rules of the `filesystem` pack on destruction without `rm`: moving home, the project or a folder
 * that holds them away (`mv ~ …`, `mv . ..`, `mv "$PWD" /tmp`), `rsync --delete` into them or
 * `--remove-source-files` out of them, archivers that delete what they pack (`tar --remove-files`,
 * `zip -m`, `7z -sdel`), and the delete tools of package registries (`rimraf`, `del-cli`, `trash`),
 * which `npx`/`bunx`/`pnpm dlx`/`npm exec`/`yarn dlx` run: what those runners run is handed back
 * to the guard, so `npx rimraf ~` is judged as `rimraf ~`.
 */
import { parseOptions } from "../options.ts";
import type { NestedRun, RuleContext, ShellCommand, ShellRule } from "../types.ts";
import { firstUnsafe, protectedRoot, unsafeTarget } from "./_paths.ts";

/** `$PWD`, `$(pwd)`: the directory the command runs in. */
const CURRENT_DIR = /^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)(?=\/|$)/;

/** Why moving or emptying `word` destroys home, the project, or what holds them; `undefined` when it does not. */
function protectedPath(command: ShellCommand, word: string, context: RuleContext): string | undefined {
	const text = CURRENT_DIR.test(word) ? word.replace(CURRENT_DIR, command.cwd ?? "$PWD") : word;
	// A bare `*` (or `.*`) is everything in the folder: the folder itself, for this purpose.
	const whole = text.replace(/(?:^|\/)(?:\*|\.\*|\.\[!.\]\*)$/, (m) => (m.startsWith("/") ? "" : ".")) || "/";
	const path = context.resolve(whole);
	if (path === undefined) return undefined;
	if (!protectedRoot(path, context)) return undefined;
	if (path === "/") return `${word}: the whole file system`;
	if (path === context.home) return `${word}: the home directory`;
	if (path === context.project) return `${word}: the project`;
	return `${word} (${path}) holds the project, home or system files`;
}

/** The long options of `args` whose name starts with one of `prefixes` (`--del`, `--delete-after`…). */
const longStarting = (args: readonly string[], pattern: RegExp) =>
	args.some((arg) => arg.startsWith("--") && pattern.test(arg.slice(2).split("=")[0] as string));

const RSYNC_SHORT_VALUE = "BefTM@";
const RSYNC_LONG_VALUE = [
	"rsh",
	"filter",
	"exclude",
	"include",
	"exclude-from",
	"include-from",
	"files-from",
	"temp-dir",
	"compare-dest",
	"copy-dest",
	"link-dest",
	"backup-dir",
	"suffix",
	"chmod",
	"chown",
	"usermap",
	"groupmap",
	"max-delete",
	"max-size",
	"min-size",
	"partial-dir",
	"log-file",
	"log-file-format",
	"password-file",
	"port",
	"sockopts",
	"bwlimit",
	"timeout",
	"contimeout",
	"out-format",
	"iconv",
	"checksum-choice",
	"compress-choice",
	"rsync-path",
	"remote-option",
	"block-size",
	"modify-window",
	"info",
	"debug",
	"stop-after",
	"stop-at",
	"write-batch",
	"read-batch",
	"only-write-batch",
	"address",
];

/** rsync's operands: sources and the destination, and whether a path is on another host. */
export function rsyncOperands(args: readonly string[]): { sources: string[]; dest: string | undefined; dryRun: boolean } {
	const options = parseOptions(args, { shortValue: RSYNC_SHORT_VALUE, longValue: RSYNC_LONG_VALUE });
	const dryRun = options.short.has("n") || options.long.has("dry-run") || options.long.has("list-only");
	const words = options.positionals;
	return { sources: words.slice(0, -1), dest: words.length >= 2 ? words.at(-1) : undefined, dryRun };
}

/** `host:path`, `user@host:path`, `rsync://…`: not on this machine. */
export const remote = (path: string) => /^[^/]*:/.test(path) && !/^[A-Za-z]:[\\/]/.test(path);

/** The delete-family flags of rsync, abbreviated or not. */
export const RSYNC_DELETES = /^(?:del|dele|delet|delete(?:-.*)?|remove-s.*|remove-sent-files)$/;

/** Operands of GNU tar that it archives (the archive and option values aside), with `-C` applied. */
function tarOperands(args: readonly string[]): {
	words: Array<{ word: string; dir?: string | undefined; index: number }>;
	remove: boolean;
	listed: boolean;
} {
	const VALUE_LETTERS = "bCfFgHIKLNTVX";
	const LONG_VALUE =
		/^(?:file|directory|exclude|exclude-from|files-from|format|use-compress-program|listed-incremental|newer|after-date|label|transform|xform|owner|group|mode|mtime|blocking-factor|record-size|tape-length|info-script|new-volume-script|starting-file|strip-components|suffix|to-command|checkpoint-action|rsh-command|rmt-command|volno-file|exclude-tag|exclude-tag-all|exclude-tag-under|level|sort|warning|atime-preserve|owner-map|group-map|hole-detection|null)$/;
	const out: Array<{ word: string; dir?: string | undefined; index: number }> = [];
	let remove = false;
	let listed = false;
	let dir: string | undefined;
	const list = [...args];
	// Old style: `tar czf out.tgz dir` — the first word is a cluster of letters without a dash.
	if (list[0] && /^[A-Za-z]+$/.test(list[0])) list[0] = `-${list[0]}`;
	for (let i = 0; i < list.length; i++) {
		const arg = list[i] as string;
		if (arg === "--") {
			for (let j = i + 1; j < list.length; j++) out.push({ word: list[j] as string, dir, index: j });
			break;
		}
		if (arg.startsWith("--")) {
			const name = arg.slice(2).split("=")[0] as string;
			if (name.length >= 3 && "remove-files".startsWith(name)) remove = true;
			if (name === "files-from") listed = true;
			const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : LONG_VALUE.test(name) ? list[++i] : undefined;
			if (name === "directory" && value !== undefined) dir = value;
			continue;
		}
		if (arg.startsWith("-") && arg.length > 1) {
			// Each letter that takes a value takes the next word, in order (`-cfC out.tar dir`).
			for (const letter of arg.slice(1)) {
				if (!VALUE_LETTERS.includes(letter)) continue;
				const value = list[++i];
				if (letter === "C") dir = value;
				if (letter === "T") listed = true;
			}
			continue;
		}
		out.push({ word: arg, dir, index: i });
	}
	return { words: out, remove, listed };
}

const DELETE_TOOLS = new Set(["rimraf", "del-cli", "trash", "trash-put", "trash-cli", "rm-rf", "premove", "rmrf"]);

export const moveRules: ShellRule[] = [
	{
		id: "filesystem/move-away",
		reason: "moves home, the project or a folder holding them away",
		programs: ["mv"],
		test(command, context) {
			const options = parseOptions(command.args, { shortValue: "tS", longValue: ["target-directory", "suffix", "backup"] });
			const targetGiven = options.values.has("t") || typeof options.long.get("target-directory") === "string";
			const sources = targetGiven ? options.positionals : options.positionals.slice(0, -1);
			for (const source of sources) {
				const why = protectedPath(command, source, context);
				if (why) return `mv moves it away (${why})`;
			}
			return false;
		},
	},
	{
		id: "filesystem/rsync-delete",
		reason: "rsync deletes files in home, the project or a system folder",
		programs: ["rsync"],
		test(command, context) {
			const { sources, dest, dryRun } = rsyncOperands(command.args);
			if (dryRun) return false;
			if (longStarting(command.args, /^(?:del|dele|delet|delete(?:-.*)?)$/) && dest !== undefined && !remote(dest)) {
				const at = command.args.lastIndexOf(dest);
				if (command.computed[at] === true && !CURRENT_DIR.test(dest)) return `rsync --delete into ${dest}: a folder known only at run time`;
				const why = protectedPath(command, dest, context);
				if (why) return `rsync --delete empties what the source lacks (${why})`;
			}
			if (longStarting(command.args, /^remove-s/))
				for (const source of sources) {
					if (remote(source)) continue;
					const why = protectedPath(command, source, context);
					if (why) return `rsync --remove-source-files deletes the files it copies (${why})`;
				}
			return false;
		},
	},
	{
		id: "filesystem/archive-delete",
		reason: "an archiver that deletes the files it packs",
		programs: ["tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zz"],
		test(command, context) {
			const p = command.program;
			if (p === "zip") {
				const options = parseOptions(command.args, { shortValue: "bntPZsO", longValue: ["temp-path", "suffixes", "password"] });
				if (!options.short.has("m") && !options.long.has("move")) return false;
				const why = firstUnsafe(command, options.positionals.slice(1), context);
				return why && `zip -m deletes what it packs (${why})`;
			}
			if (p.startsWith("7z")) {
				if (!command.args.includes("-sdel")) return false;
				const words = command.args.filter((a) => !a.startsWith("-"));
				const why = firstUnsafe(command, words.slice(2), context);
				return why && `7z -sdel deletes what it packs (${why})`;
			}
			const { words, remove, listed } = tarOperands(command.args);
			if (!remove) return false;
			if (listed) return "tar --remove-files deletes files named in a list the guard cannot read";
			for (const { word, dir, index } of words) {
				const path = dir === undefined || word.startsWith("/") ? word : `${dir.replace(/\/+$/, "")}/${word}`;
				const why = unsafeTarget(path, command.computed[index] === true || (dir !== undefined && /[$`]/.test(dir)), context);
				if (why) return `tar --remove-files deletes what it packs (${why})`;
			}
			return false;
		},
	},
	{
		id: "filesystem/delete-tool",
		reason: "a delete tool (rimraf, del-cli, trash…) on a path outside temp dirs",
		programs: [...DELETE_TOOLS],
		test(command, context) {
			if (!DELETE_TOOLS.has(command.program)) return false;
			const options = parseOptions(command.args, { longValue: ["impl", "tmp", "max-retries", "retry-delay", "backoff"] });
			if (options.long.has("help") || options.long.has("version") || options.short.has("h")) return false;
			const why = firstUnsafe(command, options.positionals, context);
			return why && `${command.program} deletes recursively (${why})`;
		},
	},
];

/** Options of the package runners that take a value. */
const RUNNER_VALUE: Record<string, { short: string; long: string[] }> = {
	npx: { short: "p", long: ["package", "shell", "prefix", "registry", "userconfig", "cache", "workspace", "loglevel"] },
	bunx: { short: "p", long: ["package", "cwd", "registry"] },
	pnpx: { short: "p", long: ["package", "registry", "dir", "C"] },
};

/** `npx -y rimraf@5 dist` → `rimraf dist`; `npx -c 'rimraf x'` → that line; `undefined` when it runs nothing. */
export function runnerRuns(command: ShellCommand): NestedRun[] | undefined {
	const p = command.program;
	let args = command.args;
	let via = p;
	if (p === "shx") return args.length > 0 ? [{ via: "shx", argv: args }] : undefined;
	// `yarn rimraf x`, `pnpm rimraf x`: both run a package's program when no script has that name.
	if ((p === "yarn" || p === "pnpm") && DELETE_TOOLS.has(args[0] ?? "")) return [{ via: p, argv: args }];
	if (p === "npm" && (args[0] === "exec" || args[0] === "x")) [via, args] = [`npm ${args[0]}`, args.slice(1)];
	else if (p === "pnpm" && (args[0] === "dlx" || args[0] === "exec" || args[0] === "x")) [via, args] = [`pnpm ${args[0]}`, args.slice(1)];
	else if (p === "yarn" && (args[0] === "dlx" || args[0] === "exec")) [via, args] = [`yarn ${args[0]}`, args.slice(1)];
	else if (p === "bun" && args[0] === "x") [via, args] = ["bun x", args.slice(1)];
	else if (!(p in RUNNER_VALUE)) return undefined;
	if (via === "yarn exec") return args.length > 0 ? [{ via, script: args.join(" ") }] : undefined;
	const spec = RUNNER_VALUE[p === "npm" || p === "pnpm" || p === "yarn" ? "npx" : p === "bun" ? "bunx" : p] ?? RUNNER_VALUE.npx;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") return i + 1 < args.length ? [{ via, argv: binOf(args.slice(i + 1)) }] : undefined;
		if (arg === "-c" || arg === "--call")
			return args[i + 1] === undefined ? undefined : [{ via: `${via} ${arg}`, script: args[i + 1] as string }];
		if (arg.startsWith("--call=")) return [{ via: `${via} --call`, script: arg.slice(7) }];
		if (arg.startsWith("--")) {
			if (!arg.includes("=") && spec?.long.includes(arg.slice(2))) i++;
			continue;
		}
		if (arg.startsWith("-") && arg.length > 1) {
			if (spec?.short.includes(arg.at(-1) as string)) i++;
			continue;
		}
		return [{ via, argv: binOf(args.slice(i)) }];
	}
	return undefined;
}

/** `@scope/pkg@1.2` → `pkg`: the program a package spec runs (its name, as most packages name their bin). */
function binOf(argv: string[]): string[] {
	const [spec = "", ...rest] = argv;
	const name = spec.replace(/^(@[^/]+\/)?([^@]+)(?:@.*)?$/, "$2");
	return [name, ...rest];
}
