/** `find`: where it starts, and the commands its `-exec`/`-execdir`/`-ok`/`-okdir` actions run. */
import type { Unwrapped } from "./runner-kinds.ts";

/** The index of the first start path: after `-H`, `-L`, `-P`, `-D debugopts` and `-Olevel`. */
function startsAt(args: readonly string[]): number {
	let i = 0;
	while (i < args.length && /^-[HLP]+$|^-D$|^-O\d*$/.test(args[i] as string)) i += args[i] === "-D" ? 2 : 1;
	return i;
}

/** The paths `find` starts from (`.` when none is given), each with whether it is computed. */
export function findStarts(args: readonly string[], computed: readonly boolean[] = []): Array<{ path: string; computed: boolean }> {
	const starts: Array<{ path: string; computed: boolean }> = [];
	for (let i = startsAt(args); i < args.length && !/^[-(!]/.test(args[i] as string); i++)
		starts.push({ path: args[i] as string, computed: computed[i] === true });
	if (starts.length === 0) starts.push({ path: ".", computed: false });
	return starts;
}

/**
 * `find START… -exec CMD {} ;` runs CMD on what it finds under START: `{}` becomes `START/{found}`,
 * so a rule sees where the paths lie. `-delete` stays on `find` itself, for the rules to judge.
 */
export function findCommands(args: string[], computed: boolean[]): Unwrapped | undefined {
	const starts = findStarts(args, computed);
	let i = startsAt(args);
	while (i < args.length && !/^[-(!]/.test(args[i] as string)) i++;
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
