/**
 * Every program the guard knows to run a command line or an argv it is given, in one table: its
 * options (so a value is never taken for the command) and what it runs. The analyzer unwraps each
 * one, so rules judge `rm` in `sudo -u ci env -C / nice -n 5 rm -rf etc` and the script in
 * `su -c 'rm -rf /'`. Shells and interpreters are read in `shells.ts` and `interpreters.ts`;
 * `coproc`, `trap`, `awk` and `sed` in `embedded.ts`; what the table does not name runs nothing
 * the guard knows of.
 */
import { findCommands } from "./find.ts";
import { given, readArgs, optionValue } from "./getopt.ts";
import {
	argvAt,
	argvRunner,
	type Call,
	dir,
	HELP,
	NICE,
	packageRunner,
	parallelCommands,
	quote,
	type Runner,
	type Unwrapped,
} from "./runner-kinds.ts";
import { shellLine } from "./runner-kinds.ts";
import { IDENTITY_RUNNERS } from "./runners-identity.ts";
import { TOOL_RUNNERS } from "./runners-tools.ts";

export type { CwdChange, Unwrapped } from "./runner-kinds.ts";

/** The table: program name → how to read it. */
export const RUNNERS: Readonly<Record<string, Runner>> = {
	...IDENTITY_RUNNERS,
	...TOOL_RUNNERS,
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
	// `yarn exec 'rm -rf ~'` runs a shell line (yarn 2+), `yarn exec rimraf dist` an argv (yarn 1): read as one line, both are judged.
	"yarn-exec": {
		options: { short: "+", long: {} },
		run: (call) =>
			call.args.length === 0
				? undefined
				: { kind: "script", via: "yarn exec", script: call.args.length === 1 ? (call.args[0] as string) : shellLine(call.args) },
	},
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
	busybox: argvRunner({ short: "+", long: { list: 0, "list-full": 0, install: 0, ...HELP } }, { inert: ["list", "list-full", "install"] }),
	toybox: argvRunner({ short: "+", long: HELP }),
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
	"cross-env": argvRunner({ short: "+" }, { assignments: true }),
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
};

/** Package runners reached through a package manager's subcommand: `npm exec`, `pnpm dlx`, `bun x`, `yarn dlx`. */
const SUBCOMMANDS: Record<string, Record<string, string>> = {
	npm: { exec: "npx", x: "npx" },
	pnpm: { dlx: "npx", exec: "npx" },
	yarn: { dlx: "npx", exec: "yarn-exec" },
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
