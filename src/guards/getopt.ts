/**
 * Arguments read the way GNU `getopt_long` reads them: short options clustered (`-rf`), a value
 * attached or in the next word (`-n5`, `-n 5`), long options written `--name=value` or
 * `--name value`, and a long option abbreviated to any prefix that names only one (`rm --recur`
 * is `rm --recursive`). A table per program says which options take a value, so a value is never
 * read as the command or an operand (`sudo -u root cmd`, `bash -O extglob -c …`).
 */

/** A program's options, as its `getopt_long` call declares them. */
export interface OptionTable {
	/**
	 * getopt's option string: each letter, `:` after one that takes a value, `::` after one whose
	 * value is optional (attached only). A leading `+` stops at the first operand, as wrappers do.
	 */
	short: string;
	/** Long names: 0 takes no value, 1 takes one (`--x=v` or `--x v`), 2 an optional one (`--x=v` only). */
	long?: Readonly<Record<string, 0 | 1 | 2>>;
}

/** One option read: a letter or a long name written in full, its value, and the word it starts at. */
export interface ReadOption {
	name: string;
	value?: string | undefined;
	at: number;
}

/** What {@link readArgs} found. */
export interface ReadArgs {
	options: ReadOption[];
	/** Indexes of the operands, in order. */
	operands: number[];
	/** The arguments with every long option written in full (`--recur` → `--recursive`). */
	args: string[];
	/** The index of `--` when it ended the options, else -1. */
	dashes: number;
}

/** The long option `written` names (exact, else the only one it is a prefix of), or `undefined`. */
export function longName(table: OptionTable, written: string): string | undefined {
	const long = table.long;
	if (!long) return undefined;
	if (Object.hasOwn(long, written)) return written;
	let found: string | undefined;
	for (const name of Object.keys(long)) {
		if (!name.startsWith(written)) continue;
		if (found !== undefined) return undefined; // ambiguous: the program refuses it
		found = name;
	}
	return found;
}

/** What a short letter takes: 0 nothing, 1 a value, 2 an optional attached one; `undefined` when unknown. */
function shortArity(table: OptionTable, letter: string): 0 | 1 | 2 | undefined {
	if (letter === ":" || letter === "+") return undefined;
	const at = table.short.indexOf(letter);
	if (at < 0) return undefined;
	if (table.short[at + 1] !== ":") return 0;
	return table.short[at + 2] === ":" ? 2 : 1;
}

/** Reads `args` with `table`. With `stop` (or a leading `+`), options end at the first operand. */
export function readArgs(table: OptionTable, args: readonly string[], stop = table.short.startsWith("+")): ReadArgs {
	const out: ReadArgs = { options: [], operands: [], args: [...args], dashes: -1 };
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") {
			out.dashes = i;
			for (let j = i + 1; j < args.length; j++) out.operands.push(j);
			break;
		}
		if (arg.startsWith("--")) {
			const eq = arg.indexOf("=");
			const written = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
			const name = longName(table, written);
			const arity = name === undefined ? undefined : table.long?.[name];
			let value = eq < 0 ? undefined : arg.slice(eq + 1);
			if (name !== undefined) out.args[i] = `--${name}${value === undefined ? "" : `=${value}`}`;
			if (value === undefined && arity === 1 && i + 1 < args.length) value = args[++i];
			out.options.push({ name: name ?? written, value, at: i });
			continue;
		}
		if (arg.startsWith("-") && arg.length > 1) {
			for (let j = 1; j < arg.length; j++) {
				const letter = arg[j] as string;
				const arity = shortArity(table, letter);
				if (arity === 1 || arity === 2) {
					const attached = arg.slice(j + 1);
					const value = attached !== "" || arity === 2 ? attached || undefined : args[++i];
					out.options.push({ name: letter, value, at: i });
					break;
				}
				out.options.push({ name: letter, at: i });
			}
			continue;
		}
		out.operands.push(i);
		if (stop) {
			for (let j = i + 1; j < args.length; j++) out.operands.push(j);
			break;
		}
	}
	return out;
}

/** Whether any of `names` (letters or long names in full) was given. */
export const given = (read: ReadArgs, ...names: string[]) => read.options.some((option) => names.includes(option.name));

/** The last value given for any of `names`, `undefined` when none. */
export function optionValue(read: ReadArgs, ...names: string[]): string | undefined {
	let value: string | undefined;
	for (const option of read.options) if (names.includes(option.name) && option.value !== undefined) value = option.value;
	return value;
}
