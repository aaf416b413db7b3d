/**
 * Programs that run another program: what each one runs, so rules judge `git` in
 * `sudo -u ci env -i nice -n 5 git reset --hard`, `rm` in `find . -exec rm -rf {} +`, and the
 * script in `watch 'rm -rf x'`.
 */

/** What a wrapper runs: another argv, a script for the shell, or several commands (`find -exec`). */
export type Unwrapped =
	| { kind: "argv"; via: string; argv: string[]; computed: boolean[] }
	| { kind: "script"; via: string; script: string }
	| { kind: "commands"; via: string; commands: Array<{ argv: string[]; computed: boolean[] }> };

/** Per wrapper: its flags that take a value (single letters and long names), or a custom reader. */
interface Spec {
	shortValue?: string;
	longValue?: readonly string[];
	/** Positionals it takes before the command (`timeout 5 cmd`, `chroot DIR cmd`). */
	leading?: number;
	/** Flags after which it runs nothing (`sudo -l`, `command -v`). */
	inert?: readonly string[];
	/** Whether `NAME=value` words before the command are assignments (`env`, `sudo`). */
	assignments?: boolean;
}

const SPECS: Record<string, Spec> = {
	sudo: {
		shortValue: "ugCDhprtUT",
		longValue: ["user", "group", "chdir", "host", "prompt", "role", "type", "other-user", "command-timeout", "close-from"],
		inert: ["l", "v", "k", "K", "V", "list", "validate"],
		assignments: true,
	},
	doas: { shortValue: "uC", inert: ["L"] },
	env: { shortValue: "uCS", longValue: ["unset", "chdir", "split-string"], assignments: true },
	command: { inert: ["v", "V"] },
	builtin: {},
	exec: { shortValue: "a" },
	nohup: {},
	time: { shortValue: "fo", longValue: ["format", "output"] },
	nice: { shortValue: "n", longValue: ["adjustment"] },
	ionice: { shortValue: "cnpP", longValue: ["class", "classdata", "pid", "pgid"] },
	timeout: { shortValue: "sk", longValue: ["signal", "kill-after"], leading: 1 },
	stdbuf: { shortValue: "ioe", longValue: ["input", "output", "error"] },
	setsid: {},
	chrt: { leading: 1 },
	taskset: { leading: 1 },
	chroot: { leading: 1, longValue: ["userspec", "groups"] },
	unbuffer: {},
	caffeinate: { shortValue: "tw" },
	flock: { shortValue: "wEc", leading: 1 },
	strace: { shortValue: "eoOpPsSuaXbI" },
	ltrace: { shortValue: "eoaAnsu" },
	"run-one": {},
	proxychains: { shortValue: "f" },
	torsocks: {},
	firejail: {},
	xargs: {
		shortValue: "adEeIiLlnPs",
		longValue: ["arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
	},
	watch: { shortValue: "nqd", longValue: ["interval", "differences"] },
	parallel: { shortValue: "jS", longValue: ["jobs"] },
};

/** Where a wrapper's command starts in `args`, `-1` when it runs none, and what `env -S` splits. */
function commandStart(name: string, spec: Spec, args: readonly string[]): { start: number; split?: string | undefined } {
	let leading = spec.leading ?? 0;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") return { start: i + 1 };
		if (arg.startsWith("--") && arg.length > 2) {
			const [flag = "", value] = arg.slice(2).split("=", 2);
			if (spec.inert?.includes(flag)) return { start: -1 };
			if (name === "env" && flag === "split-string") return { start: i + (value === undefined ? 2 : 1), split: value ?? args[i + 1] };
			if (value === undefined && spec.longValue?.includes(flag)) i++;
			continue;
		}
		if (arg.startsWith("-") && arg.length > 1 && !(name === "nice" && /^-\d+$/.test(arg))) {
			for (let j = 1; j < arg.length; j++) {
				const letter = arg[j] as string;
				if (spec.inert?.includes(letter)) return { start: -1 };
				if (spec.shortValue?.includes(letter)) {
					if (name === "env" && letter === "S")
						return { start: i + (j + 1 < arg.length ? 1 : 2), split: j + 1 < arg.length ? arg.slice(j + 1) : args[i + 1] };
					if (j + 1 === arg.length) i++;
					break;
				}
			}
			continue;
		}
		if (name === "nice" && /^-\d+$/.test(arg)) continue;
		if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) continue;
		if (leading > 0) {
			leading--;
			continue;
		}
		return { start: i };
	}
	return { start: -1 };
}

/** What `program args` runs, or `undefined` when it is not a wrapper (or runs nothing). */
export function unwrap(program: string, args: string[], computed: boolean[]): Unwrapped | undefined {
	if (program === "find") return findCommands(args, computed);
	const spec = SPECS[program];
	if (!spec) return undefined;
	const { start, split } = commandStart(program, spec, args);
	if (split !== undefined) return { kind: "script", via: "env -S", script: [split, ...args.slice(start).map(quote)].join(" ") };
	if (start < 0 || start >= args.length)
		return program === "xargs" ? { kind: "argv", via: "xargs", argv: ["echo", "{xargs input}"], computed: [false, true] } : undefined;
	const argv = args.slice(start);
	const argvComputed = computed.slice(start);
	if (program === "watch") return { kind: "script", via: "watch", script: argv.join(" ") };
	if (program === "xargs" || program === "parallel")
		// What xargs reads on its standard input becomes more arguments: unknown paths.
		return { kind: "argv", via: program, argv: [...argv, "{xargs input}"], computed: [...argvComputed, true] };
	return { kind: "argv", via: program, argv, computed: argvComputed };
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * `find START… -exec CMD {} ;` runs CMD on what it finds under START: `{}` becomes `START/{found}`,
 * so a rule sees where the paths lie. `-delete` stays on `find` itself, for the rules to judge.
 */
function findCommands(args: string[], computed: boolean[]): Unwrapped | undefined {
	const starts: Array<{ path: string; computed: boolean }> = [];
	let i = 0;
	while (i < args.length && /^-[HLP]$|^-D$|^-O\d*$/.test(args[i] as string)) i += args[i] === "-D" ? 2 : 1;
	for (; i < args.length && !/^[-(!]/.test(args[i] as string); i++)
		starts.push({ path: args[i] as string, computed: computed[i] === true });
	if (starts.length === 0) starts.push({ path: ".", computed: false });
	const commands: Array<{ argv: string[]; computed: boolean[] }> = [];
	for (; i < args.length; i++) {
		if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i] as string)) continue;
		const end = args.findIndex((arg, at) => at > i && (arg === ";" || arg === "+"));
		const stop = end < 0 ? args.length : end;
		for (const start of starts) {
			const argv: string[] = [];
			const argvComputed: boolean[] = [];
			for (let at = i + 1; at < stop; at++) {
				const arg = args[at] as string;
				const found = arg.includes("{}");
				argv.push(found ? arg.replaceAll("{}", `${start.path.replace(/\/+$/, "")}/{found}`) : arg);
				argvComputed.push(computed[at] === true || (found && start.computed));
			}
			if (argv.length > 0) commands.push({ argv, computed: argvComputed });
		}
		i = stop;
	}
	return commands.length > 0 ? { kind: "commands", via: "find -exec", commands } : undefined;
}
