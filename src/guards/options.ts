/** Flags of an argument list, normalised: `-rf`, `-r -f`, `-fr` and `--recursive --force` read alike. */
export interface ParsedOptions {
	/** Single-letter flags, clusters split: `-rf` gives `r` and `f`. */
	short: Set<string>;
	/** Long flags with their value (`--force=true` gives `force` → `"true"`), `true` when none. */
	long: Map<string, string | true>;
	/** Values of single-letter flags that take one (`-n 5`, `-n5`). */
	values: Map<string, string>;
	/** Everything that is not a flag, `--` removed. */
	positionals: string[];
}

/** Which flags take a value, so their value is not mistaken for a positional. */
export interface OptionSpec {
	/** Single letters that take a value: `"Cc"` for git's globals. */
	shortValue?: string;
	/** Long names that take a value when written apart: `["git-dir"]`. */
	longValue?: readonly string[];
}

/** Splits `args` into flags and positionals; what follows `--` is positional. */
export function parseOptions(args: readonly string[], spec: OptionSpec = {}): ParsedOptions {
	const out: ParsedOptions = { short: new Set(), long: new Map(), values: new Map(), positionals: [] };
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") {
			out.positionals.push(...args.slice(i + 1));
			break;
		}
		if (arg.startsWith("--")) {
			const eq = arg.indexOf("=");
			const name = (eq < 0 ? arg.slice(2) : arg.slice(2, eq)).toLowerCase();
			if (eq >= 0) out.long.set(name, arg.slice(eq + 1));
			else if (spec.longValue?.includes(name) && i + 1 < args.length) out.long.set(name, args[++i] as string);
			else out.long.set(name, true);
		} else if (arg.startsWith("-") && arg.length > 1) {
			for (let j = 1; j < arg.length; j++) {
				const letter = arg[j] as string;
				out.short.add(letter);
				if (spec.shortValue?.includes(letter)) {
					const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? "");
					out.values.set(letter, value);
					break;
				}
			}
		} else out.positionals.push(arg);
	}
	return out;
}

/** Whether any of these flags is set: single letters as `-x`, long names as `--name`. */
export function hasFlag(options: ParsedOptions, ...flags: string[]): boolean {
	return flags.some((flag) => (flag.startsWith("--") ? options.long.has(flag.slice(2)) : options.short.has(flag.replace(/^-/, ""))));
}
