/**
 * Every program the guard knows to run a command line or an argv it is given, in one table: its
 * options (so a value is never taken for the command) and what it runs. The analyzer unwraps each
 * one, so rules judge `rm` in `sudo -u ci env -C / nice -n 5 rm -rf etc` and the script in
 * `su -c 'rm -rf /'`. Shells and interpreters are read in `shells.ts` and `interpreters.ts`;
 * `coproc`, `trap`, `awk` and `sed` in `embedded.ts`; what the table does not name runs nothing
 * the guard knows of.
 */
import { findCommands } from "./find.ts";
import { given, type OptionTable, type ReadArgs, readArgs, optionValue } from "./getopt.ts";

/** A directory a runner moves its command to: a path (maybe computed), or one it cannot know. */
export type CwdChange = { to: string; computed: boolean } | "unknown";

/** What a runner runs: another argv, a script for the shell, several commands, or code it cannot read. */
export type Unwrapped =
	| { kind: "argv"; via: string; argv: string[]; computed: boolean[]; cwd?: CwdChange; assignments?: string[] }
	| { kind: "script"; via: string; script: string; cwd?: CwdChange }
	| { kind: "commands"; via: string; commands: Array<{ argv: string[]; computed: boolean[] }> }
	| { kind: "unseen"; via: string; what: string };

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

const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);
/** Words as one shell line, each quoted: what a runner that keeps an argv would run. */
export const shellLine = (words: readonly string[]) => words.map(quote).join(" ");

/** The argv from operand `from` on (the runner's command), or `undefined` when there is none. */
function argvAt(call: Call, via: string, from = 0, extra: Partial<Extract<Unwrapped, { kind: "argv" }>> = {}): Unwrapped | undefined {
	const at = call.read.operands[from];
	if (at === undefined) return undefined;
	return { kind: "argv", via, argv: call.args.slice(at), computed: call.computed.slice(at), ...extra };
}

const dir = (call: Call, path: string | undefined): CwdChange | undefined => {
	if (path === undefined) return undefined;
	const at = call.args.lastIndexOf(path);
	return { to: path, computed: at >= 0 && call.computed[at] === true };
};

/** A runner that runs the argv after its options (and `leading` operands), unless an `inert` option is given. */
function argvRunner(options: OptionTable, more: { leading?: number; inert?: readonly string[]; cwd?: readonly string[] } = {}): Runner {
	return {
		options,
		run(call) {
			if (more.inert && given(call.read, ...more.inert)) return undefined;
			const change = more.cwd ? dir(call, optionValue(call.read, ...more.cwd)) : undefined;
			return argvAt(call, call.program, more.leading ?? 0, change ? { cwd: change } : {});
		},
	};
}

const HELP = { help: 0, version: 0 } as const;
const NICE: OptionTable = { short: "+n:", long: { adjustment: 1, ...HELP } };

/** `su`/`runuser`: `-c CMD` runs through the user's shell; arguments after the user go to that shell. */
const suRunner = (short: string, extra: Record<string, 0 | 1 | 2> = {}): Runner => ({
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

function tmuxCommands(call: Call): Unwrapped | undefined {
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

function sshRemote(call: Call): Unwrapped | undefined {
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
const SSH: OptionTable = { short: "+46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:" };

/** `npx pkg@1 args`: the package's program (version dropped) with its arguments; `-c CMD` is a script. */
function packageRunner(options: OptionTable, via: string): Runner {
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
function parallelCommands(call: Call): Unwrapped | undefined {
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

/** The table: program name → how to read it. */
export const RUNNERS: Readonly<Record<string, Runner>> = {
	sudo: {
		options: {
			short: "+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:Sst:T:U:u:Vv",
			long: {
				askpass: 0,
				"auth-type": 1,
				background: 0,
				bell: 0,
				"close-from": 1,
				chdir: 1,
				"login-class": 1,
				"preserve-env": 2,
				edit: 0,
				group: 1,
				"set-home": 0,
				host: 1,
				login: 0,
				"remove-timestamp": 0,
				"reset-timestamp": 0,
				list: 0,
				"non-interactive": 0,
				"no-update": 0,
				"preserve-groups": 0,
				prompt: 1,
				chroot: 1,
				role: 1,
				stdin: 0,
				shell: 0,
				type: 1,
				"command-timeout": 1,
				"other-user": 1,
				user: 1,
				validate: 0,
				...HELP,
			},
		},
		run(call) {
			const { read } = call;
			if (given(read, "e", "edit", "l", "list", "v", "validate", "V", "version", "K", "remove-timestamp")) return undefined;
			if (given(read, "h", "help") && optionValue(read, "h") === undefined) return undefined;
			const login = given(read, "i", "login");
			const chroot = optionValue(read, "R", "chroot");
			const cwd: CwdChange | undefined = login || chroot !== undefined ? "unknown" : dir(call, optionValue(read, "D", "chdir"));
			const start = read.operands.findIndex((at) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(call.args[at] as string));
			const assignments = read.operands.slice(0, start < 0 ? undefined : start).map((at) => call.args[at] as string);
			// `sudo -s` / `sudo -i` with no command: a shell that reads its script from stdin.
			if (start < 0)
				return login || given(read, "s", "shell")
					? { kind: "argv", via: "sudo", argv: ["sh"], computed: [false], assignments, ...(cwd ? { cwd } : {}) }
					: undefined;
			return argvAt(call, "sudo", start, { assignments, ...(cwd ? { cwd } : {}) });
		},
	},
	doas: argvRunner({ short: "+a:C:Lnsu:" }, { inert: ["C", "L"] }),
	run0: argvRunner(
		{
			short: "+u:g:D:",
			long: {
				user: 1,
				group: 1,
				chdir: 1,
				nice: 1,
				property: 1,
				description: 1,
				slice: 1,
				setenv: 1,
				unit: 1,
				machine: 1,
				background: 1,
				...HELP,
			},
		},
		{ cwd: ["D", "chdir"] },
	),
	pkexec: argvRunner({ short: "+", long: { user: 1, "disable-internal-agent": 0, "keep-cwd": 0, ...HELP } }),
	su: suRunner("c:fg:G:lmpPs:hVw:"),
	runuser: suRunner("c:fg:G:lmpPs:u:hVw:", { user: 1 }),
	sg: {
		options: { short: "+c" },
		run(call) {
			const words = call.read.operands.slice(1).map((at) => call.args[at] as string);
			return words.length > 0 ? { kind: "script", via: "sg", script: words.join(" ") } : undefined;
		},
	},
	env: {
		options: {
			short: "+0a:iu:C:S:vP:",
			long: {
				argv0: 1,
				"ignore-environment": 0,
				null: 0,
				unset: 1,
				chdir: 1,
				"split-string": 1,
				"block-signal": 2,
				"default-signal": 2,
				"ignore-signal": 2,
				"list-signal-handling": 0,
				debug: 0,
				...HELP,
			},
		},
		run(call) {
			const { read, args } = call;
			const cwd = dir(call, optionValue(read, "C", "chdir"));
			const split = optionValue(read, "S", "split-string");
			const operands = read.operands.filter((at) => args[at] !== "-");
			const start = operands.findIndex((at) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(args[at] as string));
			const assignments = operands.slice(0, start < 0 ? undefined : start).map((at) => args[at] as string);
			const rest = start < 0 ? [] : args.slice(operands[start]);
			if (split !== undefined)
				return { kind: "script", via: "env -S", script: [split, ...rest.map(quote)].join(" "), ...(cwd ? { cwd } : {}) };
			if (start < 0) return undefined;
			return argvAt(call, "env", read.operands.indexOf(operands[start] as number), { assignments, ...(cwd ? { cwd } : {}) });
		},
	},
	command: argvRunner({ short: "+pvV" }, { inert: ["v", "V"] }),
	builtin: argvRunner({ short: "+" }),
	exec: argvRunner({ short: "+a:cl" }),
	nohup: argvRunner({ short: "+", long: HELP }),
	time: argvRunner({ short: "+f:o:apqv", long: { format: 1, output: 1, append: 0, portability: 0, quiet: 0, verbose: 0, ...HELP } }),
	nice: {
		options: NICE,
		run(call) {
			// `nice -5 cmd` is `nice -n 5 cmd`.
			const read = readArgs(
				NICE,
				call.args.map((arg) => (/^-\d+$/.test(arg) ? `-n${arg.slice(1)}` : arg)),
			);
			return argvAt({ ...call, read }, "nice");
		},
	},
	ionice: argvRunner(
		{ short: "+c:n:p:P:tu:", long: { class: 1, classdata: 1, pid: 1, pgid: 1, ignore: 0, uid: 1, ...HELP } },
		{ inert: ["p", "P", "u", "pid", "pgid", "uid"] },
	),
	timeout: argvRunner(
		{ short: "+fk:ps:v", long: { foreground: 0, "kill-after": 1, "preserve-status": 0, signal: 1, verbose: 0, ...HELP } },
		{ leading: 1 },
	),
	stdbuf: argvRunner({ short: "+i:o:e:", long: { input: 1, output: 1, error: 1, ...HELP } }),
	setsid: argvRunner({ short: "+cfw", long: { ctty: 0, fork: 0, wait: 0, ...HELP } }),
	chrt: argvRunner({ short: "+abdefiopmrRvT:P:D:", long: { pid: 0, all: 0, ...HELP } }, { leading: 1, inert: ["p", "pid"] }),
	taskset: argvRunner({ short: "+acp", long: { pid: 0, "all-tasks": 0, "cpu-list": 0, ...HELP } }, { leading: 1, inert: ["p", "pid"] }),
	numactl: argvRunner({
		short: "+aC:i:m:N:p:lsHSb",
		long: { interleave: 1, membind: 1, cpunodebind: 1, physcpubind: 1, preferred: 1, localalloc: 0, ...HELP },
	}),
	chroot: {
		options: { short: "+", long: { userspec: 1, groups: 1, "skip-chdir": 0, ...HELP } },
		run: (call) => argvAt(call, "chroot", 1, given(call.read, "skip-chdir") ? { cwd: "unknown" } : { cwd: { to: "/", computed: false } }),
	},
	unshare: {
		options: {
			short: "+m::u::i::n::p::U::C::T::frcR:w:S:G:",
			long: {
				mount: 2,
				uts: 2,
				ipc: 2,
				net: 2,
				pid: 2,
				user: 2,
				cgroup: 2,
				time: 2,
				fork: 0,
				"map-user": 1,
				"map-group": 1,
				"map-root-user": 0,
				"map-current-user": 0,
				"map-auto": 0,
				"map-users": 1,
				"map-groups": 1,
				"kill-child": 2,
				"mount-proc": 2,
				propagation: 1,
				setgroups: 1,
				"keep-caps": 0,
				root: 1,
				wd: 1,
				setuid: 1,
				setgid: 1,
				monotonic: 1,
				boottime: 1,
				...HELP,
			},
		},
		run(call) {
			const cwd = optionValue(call.read, "R", "root") !== undefined ? "unknown" : dir(call, optionValue(call.read, "w", "wd"));
			return argvAt(call, "unshare", 0, cwd ? { cwd } : {}) ?? { kind: "argv", via: "unshare", argv: ["sh"], computed: [false] };
		},
	},
	nsenter: argvRunner(
		{ short: "+at:m::u::i::n::p::C::U::T::S:G:r::w::FZe", long: { all: 0, target: 1, root: 2, wd: 2, setuid: 1, setgid: 1, ...HELP } },
		{ cwd: ["w", "wd"] },
	),
	"systemd-run": {
		options: {
			short: "+hrC:H:M:p:u:E:tPqGdS",
			long: {
				user: 0,
				system: 0,
				scope: 0,
				unit: 1,
				property: 1,
				description: 1,
				slice: 1,
				"slice-inherit": 0,
				"remain-after-exit": 0,
				"send-sighup": 0,
				"service-type": 1,
				uid: 1,
				gid: 1,
				nice: 1,
				"working-directory": 1,
				"same-dir": 0,
				setenv: 1,
				pty: 0,
				pipe: 0,
				quiet: 0,
				wait: 0,
				collect: 0,
				shell: 0,
				"on-active": 1,
				"on-boot": 1,
				"on-startup": 1,
				"on-unit-active": 1,
				"on-unit-inactive": 1,
				"on-calendar": 1,
				"on-clock-change": 0,
				"on-timezone-change": 0,
				"timer-property": 1,
				"path-property": 1,
				"socket-property": 1,
				"no-block": 0,
				"no-ask-password": 0,
				host: 1,
				machine: 1,
				capsule: 1,
				"expand-environment": 1,
				background: 1,
				json: 1,
				...HELP,
			},
		},
		run(call) {
			const { read } = call;
			const cwd = given(read, "d", "same-dir") ? undefined : (dir(call, optionValue(read, "working-directory")) ?? "unknown");
			return (
				argvAt(call, "systemd-run", 0, cwd ? { cwd } : {}) ??
				(given(read, "S", "shell") ? { kind: "argv", via: "systemd-run", argv: ["sh"], computed: [false] } : undefined)
			);
		},
	},
	fakeroot: {
		options: { short: "+l:b:i:s:u", long: { lib: 1, faked: 1, "unknown-is-real": 0, ...HELP } },
		run: (call) => argvAt(call, "fakeroot") ?? { kind: "argv", via: "fakeroot", argv: ["sh"], computed: [false] },
	},
	fakechroot: argvRunner({ short: "+l:d:e:s:", long: { lib: 1, elfloader: 1, environment: 1, "use-system-libs": 0, config: 1, ...HELP } }),
	busybox: argvRunner({ short: "+", long: { list: 0, "list-full": 0, install: 0, ...HELP } }, { inert: ["list", "list-full", "install"] }),
	toybox: argvRunner({ short: "+", long: HELP }),
	script: {
		options: {
			short: "ac:eE:fI:O:B:T:t::m:o:qhV",
			long: {
				append: 0,
				command: 1,
				echo: 1,
				return: 0,
				flush: 0,
				force: 0,
				"log-in": 1,
				"log-out": 1,
				"log-io": 1,
				"log-timing": 1,
				"logging-format": 1,
				"output-limit": 1,
				quiet: 0,
				timing: 2,
				...HELP,
			},
		},
		run(call) {
			const command = optionValue(call.read, "c", "command");
			if (command !== undefined) return { kind: "script", via: "script -c", script: command };
			if (call.read.dashes >= 0 && call.read.dashes + 1 < call.args.length)
				return {
					kind: "argv",
					via: "script",
					argv: call.args.slice(call.read.dashes + 1),
					computed: call.computed.slice(call.read.dashes + 1),
				};
			// No command: an interactive shell, which reads what is piped in.
			return { kind: "argv", via: "script", argv: ["sh"], computed: [false] };
		},
	},
	flock: {
		options: {
			short: "+sexnoFuw:E:hV",
			long: {
				shared: 0,
				exclusive: 0,
				unlock: 0,
				nonblock: 0,
				nb: 0,
				close: 0,
				"no-fork": 0,
				timeout: 1,
				wait: 1,
				"conflict-exit-code": 1,
				verbose: 0,
				...HELP,
			},
		},
		run(call) {
			const [, next] = call.read.operands;
			if (next === undefined) return undefined;
			const word = call.args[next] as string;
			if (word === "-c" || word === "--command") return { kind: "script", via: "flock -c", script: call.args[next + 1] ?? "" };
			return argvAt(call, "flock", 1);
		},
	},
	ssh: { options: SSH, run: sshRemote },
	tmux: { options: { short: "+2CDlNuvVc:f:L:S:T:" }, run: tmuxCommands },
	screen: argvRunner({ short: "+aAdDfFhiLlmOqrRUx4:6c:e:h:p:S:s:t:T:X:" }, { inert: ["r", "R", "x", "list", "ls"] }),
	watch: {
		options: {
			short: "+bcCd::egn:pq:rtwx",
			long: {
				beep: 0,
				color: 0,
				"no-color": 0,
				differences: 2,
				errexit: 0,
				chgexit: 0,
				equexit: 1,
				interval: 1,
				precise: 0,
				"no-rerun": 0,
				"no-title": 0,
				"no-wrap": 0,
				exec: 0,
				...HELP,
			},
		},
		run(call) {
			if (given(call.read, "x", "exec")) return argvAt(call, "watch");
			const words = call.read.operands.map((at) => call.args[at] as string);
			return words.length > 0 ? { kind: "script", via: "watch", script: words.join(" ") } : undefined;
		},
	},
	xargs: {
		options: {
			short: "+0a:d:E:e::I:i::L:l::n:oP:prs:tx",
			long: {
				"arg-file": 1,
				delimiter: 1,
				eof: 2,
				replace: 2,
				"max-lines": 2,
				"max-args": 1,
				"max-procs": 1,
				"max-chars": 1,
				"process-slot-var": 1,
				interactive: 0,
				"no-run-if-empty": 0,
				null: 0,
				"open-tty": 0,
				exit: 0,
				"show-limits": 0,
				verbose: 0,
				...HELP,
			},
		},
		run(call) {
			// What xargs reads becomes more arguments: paths only known at run time.
			const found = argvAt(call, "xargs") ?? { kind: "argv", via: "xargs", argv: ["echo"], computed: [false] };
			return found.kind === "argv" ? { ...found, argv: [...found.argv, "{xargs input}"], computed: [...found.computed, true] } : found;
		},
	},
	parallel: {
		options: {
			short: "+0a:C:d:E:I:j:J:l:L:m:n:N:P:S:X",
			long: {
				jobs: 1,
				"arg-file": 1,
				colsep: 1,
				delimiter: 1,
				sshlogin: 1,
				joblog: 1,
				results: 1,
				tmpdir: 1,
				workdir: 1,
				timeout: 1,
				...HELP,
			},
		},
		run: parallelCommands,
	},
	strace: argvRunner({ short: "+a:b:e:E:I:o:O:p:P:s:S:u:X:cCdDfFhiknqrtTvVwxyYzZ" }, { inert: ["p"] }),
	ltrace: argvRunner({ short: "+a:A:D:e:F:l:n:o:p:s:u:x:bcCfhiLrStTVw:" }, { inert: ["p"] }),
	caffeinate: argvRunner({ short: "+dimsuw:t:" }),
	unbuffer: argvRunner({ short: "+p" }),
	"run-one": argvRunner({ short: "+" }),
	proxychains: argvRunner({ short: "+qf:" }),
	proxychains4: argvRunner({ short: "+qf:" }),
	torsocks: argvRunner({ short: "+a:d:iP:p:u:", long: { address: 1, port: 1, user: 1, pass: 1, isolate: 0, ...HELP } }),
	firejail: argvRunner({ short: "+" }),
	cgexec: argvRunner({ short: "+g:", long: { sticky: 0 } }),
	"xvfb-run": argvRunner({
		short: "+ae:f:n:lp:s:w:",
		long: { "auto-servernum": 0, "error-file": 1, "auth-file": 1, "server-num": 1, "server-args": 1, wait: 1, ...HELP },
	}),
	"dbus-launch": argvRunner({ short: "+" }),
	"cross-env": argvRunner({ short: "+" }),
	npx: packageRunner({ short: "+p:c:y", long: { package: 1, call: 1, yes: 0, no: 0, quiet: 0, ...HELP } }, "npx"),
	bunx: packageRunner({ short: "+p:", long: { package: 1, bun: 0, silent: 0, verbose: 0, ...HELP } }, "bunx"),
	pnpx: packageRunner({ short: "+p:c:", long: { package: 1, "shell-mode": 0, ...HELP } }, "pnpx"),
	hyperfine: {
		options: {
			short: "+w:m:M:r:p:c:P:L:s:S:iNu:",
			long: {
				warmup: 1,
				"min-runs": 1,
				"max-runs": 1,
				runs: 1,
				prepare: 1,
				cleanup: 1,
				conclude: 1,
				setup: 1,
				"parameter-scan": 1,
				"parameter-list": 1,
				shell: 1,
				"export-json": 1,
				"export-markdown": 1,
				...HELP,
			},
		},
		run(call) {
			const scripts = [
				...call.read.operands.map((at) => call.args[at] as string),
				...call.read.options.filter((o) => /^(?:p|c|s|prepare|cleanup|conclude|setup)$/.test(o.name)).map((o) => o.value ?? ""),
			];
			return scripts.length > 0 ? { kind: "script", via: "hyperfine", script: scripts.join("\n") } : undefined;
		},
	},
	at: {
		options: { short: "+q:f:t:mMlrdbvcV", long: {} },
		// at/batch read the commands to run later from stdin (or a file with -f).
		run: (call) =>
			given(call.read, "f", "l", "r", "d", "c") ? undefined : { kind: "argv", via: call.program, argv: ["sh"], computed: [false] },
	},
};

/** Package runners reached through a package manager's subcommand: `npm exec`, `pnpm dlx`, `bun x`, `yarn dlx`. */
const SUBCOMMANDS: Record<string, Record<string, string>> = {
	npm: { exec: "npx", x: "npx" },
	pnpm: { dlx: "npx", exec: "npx" },
	yarn: { dlx: "npx", exec: "npx" },
	bun: { x: "bunx" },
};

/** The runner for `program args`, with what it is called in the table; `undefined` when it runs nothing. */
export function runnerFor(program: string, args: readonly string[]): { runner: Runner; args: readonly string[]; name: string } | undefined {
	const runner = RUNNERS[program];
	if (runner) return { runner, args, name: program };
	const sub = SUBCOMMANDS[program]?.[args[0] ?? ""];
	if (sub) return { runner: RUNNERS[sub] as Runner, args: args.slice(1), name: `${program} ${args[0]}` };
	return undefined;
}

/** What `program args` runs, or `undefined` when it runs nothing the table knows of. */
export function unwrap(program: string, args: string[], computed: boolean[]): Unwrapped | undefined {
	if (program === "find") return findCommands(args, computed);
	const found = runnerFor(program, args);
	if (!found) return undefined;
	const offset = args.length - found.args.length;
	const own = args.slice(offset);
	const call: Call = { program: found.name, args: own, computed: computed.slice(offset), read: readArgs(found.runner.options, own) };
	return found.runner.run(call);
}
