/** Runners that run a command as another user, on another host, in a session or a namespace: part of the table in `runners.ts`. */
import { given, optionValue } from "./getopt.ts";
import { argvAt, argvRunner, type CwdChange, dir, HELP, type Runner, SSH, sshRemote, suRunner, tmuxCommands } from "./runner-kinds.ts";

/** The command of one crontab line: after the five time fields or an `@` nickname; `undefined` for comments and settings. */
function cronCommand(line: string): string | undefined {
	const entry = line.trim();
	if (entry === "" || entry.startsWith("#") || /^[A-Za-z_]\w*\s*=/.test(entry)) return undefined;
	const match = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)$/s.exec(entry);
	return match ? (match[1] as string).replace(/%.*$/s, "") : entry;
}

/** at/batch read the commands to run later from stdin (or a file with -f). */
const AT: Runner = {
	options: { short: "+q:f:t:mMlrdbvcV", long: {} },
	run: (call) =>
		given(call.read, "f", "l", "r", "d", "c") ? undefined : { kind: "argv", via: call.program, argv: ["sh"], computed: [false] },
};

export const IDENTITY_RUNNERS: Readonly<Record<string, Runner>> = {
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
	doas: argvRunner({ short: "+a:C:Lnsu:" }, { inert: ["C", "L"], shell: true }),
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
	pkexec: argvRunner({ short: "+", long: { user: 1, "disable-internal-agent": 0, "keep-cwd": 0, ...HELP } }, { shell: true }),
	su: suRunner("c:fg:G:lmpPs:hVw:"),
	runuser: suRunner("c:fg:G:lmpPs:u:hVw:", { user: 1 }),
	sg: {
		options: { short: "+c" },
		run(call) {
			// `sg group [-c] command`: the command is one line for /bin/sh.
			const words = call.read.operands.slice(1).map((at) => call.args[at] as string);
			if (words[0] === "-c") words.shift();
			return words.length > 0 ? { kind: "script", via: "sg", script: words.join(" ") } : undefined;
		},
	},
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
	fakechroot: argvRunner(
		{ short: "+l:d:e:s:", long: { lib: 1, elfloader: 1, environment: 1, "use-system-libs": 0, config: 1, ...HELP } },
		{ shell: true },
	),
	crontab: {
		options: { short: "u:elrisT", long: {} },
		// `crontab -` (or no file) installs the table piped in: each entry's command runs later.
		run(call) {
			const file = call.read.operands.map((at) => call.args[at] as string)[0];
			if (given(call.read, "e", "l", "r", "T") || (file !== undefined && file !== "-")) return undefined;
			return { kind: "stdin", via: "crontab", line: cronCommand };
		},
	},
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
	at: AT,
	batch: AT,
};
