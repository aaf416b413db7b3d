/**
 * The shapes of the runner table (`runners.ts`) and the readers its entries share: an argv after
 * options, `su`/`runuser`, `ssh`, `tmux`, package runners (`npx`) and GNU `parallel`.
 */
import { given, type OptionTable, type ReadArgs, readArgs, optionValue } from "./getopt.ts";

/** A directory a runner moves its command to: a path (maybe computed), or one it cannot know. */
export type CwdChange = { to: string; computed: boolean } | "unknown";

/** What a runner runs: another argv, a script for the shell, several commands, or code it cannot read. */
export type Unwrapped =
	| { kind: "argv"; via: string; argv: string[]; computed: boolean[]; cwd?: CwdChange; assignments?: string[] }
	| { kind: "script"; via: string; script: string; cwd?: CwdChange }
	| { kind: "commands"; via: string; commands: Array<{ argv: string[]; computed: boolean[] }> }
	| { kind: "unseen"; via: string; what: string }
	/** Commands it reads from its standard input (`crontab -`), each line turned into a shell line by `line`. */
	| { kind: "stdin"; via: string; line: (text: string) => string | undefined };

/** The words of one command as the runner reads them. */
export interface Call {
	program: string;
	args: string[];
	computed: boolean[];
	read: ReadArgs;
}

export interface Runner {
	options: OptionTable;
	run(call: Call): Unwrapped | undefined;
}

export const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);
/** Words as one shell line, each quoted: what a runner that keeps an argv would run. */
export const shellLine = (words: readonly string[]) => words.map(quote).join(" ");

/** The argv from operand `from` on (the runner's command), or `undefined` when there is none. */
export function argvAt(
	call: Call,
	via: string,
	from = 0,
	extra: Partial<Extract<Unwrapped, { kind: "argv" }>> = {},
): Unwrapped | undefined {
	const at = call.read.operands[from];
	if (at === undefined) return undefined;
	return { kind: "argv", via, argv: call.args.slice(at), computed: call.computed.slice(at), ...extra };
}

export const dir = (call: Call, path: string | undefined): CwdChange | undefined => {
	if (path === undefined) return undefined;
	const at = call.args.lastIndexOf(path);
	return { to: path, computed: at >= 0 && call.computed[at] === true };
};

/** A runner that runs the argv after its options (and `leading` operands), unless an `inert` option is given. */
export function argvRunner(
	options: OptionTable,
	more: { leading?: number; inert?: readonly string[]; cwd?: readonly string[]; assignments?: boolean; shell?: boolean } = {},
): Runner {
	return {
		options,
		run(call) {
			if (more.inert && given(call.read, ...more.inert)) return undefined;
			const change = more.cwd ? dir(call, optionValue(call.read, ...more.cwd)) : undefined;
			let leading = more.leading ?? 0;
			// `cross-env NODE_ENV=production cmd`: the assignments come before the command.
			if (more.assignments) while (/^[A-Za-z_]\w*=/.test(call.args[call.read.operands[leading] ?? -1] ?? "")) leading++;
			const found = argvAt(call, call.program, leading, change ? { cwd: change } : {});
			// With no command, it starts a shell, which reads what is piped in.
			if (!found && more.shell && call.read.operands.length >= leading)
				return { kind: "argv", via: call.program, argv: ["sh"], computed: [false] };
			return found;
		},
	};
}

export const HELP = { help: 0, version: 0 } as const;
export const NICE: OptionTable = { short: "+n:", long: { adjustment: 1, ...HELP } };

/** `su`/`runuser`: `-c CMD` runs through the user's shell; arguments after the user go to that shell. */
export const suRunner = (short: string, extra: Record<string, 0 | 1 | 2> = {}): Runner => ({
	options: {
		short,
		long: {
			command: 1,
			"session-command": 1,
			fast: 0,
			group: 1,
			"supp-group": 1,
			login: 0,
			"preserve-environment": 0,
			pty: 0,
			shell: 1,
			"whitelist-environment": 1,
			...extra,
			...HELP,
		},
	},
	run(call) {
		const { read, args } = call;
		const operands = read.operands.map((at) => args[at] as string);
		const login = given(read, "l", "login") || operands[0] === "-";
		const cwd: CwdChange | undefined = login ? "unknown" : undefined;
		const user = optionValue(read, "u", "user");
		if (user !== undefined) return argvAt(call, `${call.program} -u`, 0, cwd ? { cwd } : {});
		const shell = optionValue(read, "s", "shell") ?? "sh";
		const command = optionValue(read, "c", "command", "session-command");
		const via = `${call.program}${command === undefined ? "" : " -c"}`;
		const rest = read.operands.slice(operands[0] === "-" ? 2 : 1);
		const shellArgs = command === undefined ? rest.map((at) => args[at] as string) : ["-c", command];
		return { kind: "argv", via, argv: [shell, ...shellArgs], computed: [false, ...shellArgs.map(() => false)], ...(cwd ? { cwd } : {}) };
	},
});

/** tmux commands that run a shell command, with the letters of their options that take a value. */
const TMUX_SHELL: Record<string, string> = {
	"new-session": "c:e:F:f:n:s:t:x:y:",
	"new-window": "c:e:F:n:t:",
	"split-window": "c:e:l:p:t:F:",
	"respawn-pane": "c:e:t:",
	"respawn-window": "c:e:t:",
	"run-shell": "d:t:c:",
	"display-popup": "b:c:d:e:h:s:S:t:T:w:x:y:",
	"pipe-pane": "t:",
	"if-shell": "t:",
	"send-keys": "N:t:",
};
const TMUX_ALIASES: Record<string, string> = {
	new: "new-session",
	neww: "new-window",
	splitw: "split-window",
	respawnp: "respawn-pane",
	respawnw: "respawn-window",
	run: "run-shell",
	popup: "display-popup",
	pipep: "pipe-pane",
	if: "if-shell",
	send: "send-keys",
};
const TMUX_KEYS = /^(?:Enter|C-m|C-j|KPEnter|Escape|Tab|Space|BSpace|C-[a-z]|M-.)$/;

export function tmuxCommands(call: Call): Unwrapped | undefined {
	const { args, read } = call;
	const scripts: string[] = [];
	let cwd: CwdChange | undefined;
	const global = optionValue(read, "c");
	if (global !== undefined) scripts.push(global);
	let words = read.operands.map((at) => args[at] as string);
	while (words.length > 0) {
		const end = words.findIndex((word) => word === ";" || word === "\\;");
		const command = end < 0 ? words : words.slice(0, end);
		words = end < 0 ? [] : words.slice(end + 1);
		const written = command[0] ?? "";
		const name =
			TMUX_ALIASES[written] ??
			Object.keys(TMUX_SHELL).find((full) => full === written) ??
			Object.keys(TMUX_SHELL).find((full) => full.startsWith(written) && written.length > 2);
		if (!name) continue;
		const sub = readArgs({ short: `+${TMUX_SHELL[name]}` }, command.slice(1));
		const operands = sub.operands.map((at) => command[at + 1] as string);
		if (name === "run-shell" && given(sub, "C")) continue;
		const start = optionValue(sub, "c");
		if (start !== undefined && name !== "run-shell") cwd = { to: start, computed: /[$`]/.test(start) };
		const shell =
			name === "if-shell" ? operands.slice(0, 1) : name === "send-keys" ? operands.filter((key) => !TMUX_KEYS.test(key)) : operands;
		if (shell.length === 0) continue;
		scripts.push(shell.length === 1 || name === "send-keys" ? shell.join(name === "send-keys" ? "" : " ") : shellLine(shell));
	}
	if (scripts.length === 0) return undefined;
	return { kind: "script", via: "tmux", script: scripts.join("\n"), ...(cwd ? { cwd } : {}) };
}

/** `ssh -o ProxyCommand=…` and its kind run a local command line. */
const SSH_LOCAL = /^(?:proxycommand|localcommand|knownhostscommand)[=\s]\s*(.*)$/is;

export function sshRemote(call: Call): Unwrapped | undefined {
	const { args, read } = call;
	for (const option of read.options) {
		const local = option.name === "o" ? SSH_LOCAL.exec(option.value ?? "") : null;
		if (local) return { kind: "script", via: "ssh -o", script: local[1] as string };
	}
	if (given(read, "N", "O", "s", "Q", "V", "G", "W")) return undefined;
	// ssh reads options again after the destination: `ssh host -p 22 cmd`.
	const host = read.operands[0];
	if (host === undefined) return undefined;
	const after = readArgs(SSH, args.slice(host + 1));
	const words = after.operands.map((at) => args[host + 1 + at] as string);
	// The remote shell runs the words joined with spaces; with none, it reads a script from stdin.
	if (words.length === 0) return { kind: "argv", via: "ssh (remote)", argv: ["sh"], computed: [false], cwd: "unknown" };
	return { kind: "script", via: "ssh (remote)", script: words.join(" "), cwd: "unknown" };
}
export const SSH: OptionTable = { short: "+46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:" };

/** `npx pkg@1 args`: the package's program (version dropped) with its arguments; `-c CMD` is a script. */
export function packageRunner(options: OptionTable, via: string): Runner {
	return {
		options,
		run(call) {
			const script = optionValue(call.read, "c", "call");
			if (script !== undefined) return { kind: "script", via: `${via} -c`, script };
			const found = argvAt(call, via);
			if (found?.kind !== "argv") return found;
			const [first = "", ...rest] = found.argv;
			const name = first.replace(/^(@[^/]+\/)?([^@]+)@.*$/, "$1$2");
			return { ...found, argv: [name, ...rest] };
		},
	};
}

/** GNU `parallel`: the command before `:::`, run for each input after it (or read from stdin). */
export function parallelCommands(call: Call): Unwrapped | undefined {
	const words = call.read.operands.map((at) => call.args[at] as string);
	const split = words.findIndex((word) => /^:::[:+]*$/.test(word));
	const command = split < 0 ? words : words.slice(0, split);
	if (command.length === 0) return undefined;
	const inputs = split < 0 ? [] : words.slice(split + 1).filter((word) => !/^:::[:+]*$/.test(word));
	const line = command.length === 1 ? (command[0] as string) : shellLine(command);
	const fill = (input: string) => (line.includes("{}") ? line.replaceAll("{}", quote(input)) : `${line} ${quote(input)}`);
	const scripts =
		inputs.length > 0 && inputs.length <= 16
			? inputs.map(fill)
			: [line.includes("{}") ? line.replaceAll("{}", '"$PARALLEL_INPUT"') : `${line} "$PARALLEL_INPUT"`];
	return { kind: "script", via: "parallel", script: scripts.join("\n") };
}
