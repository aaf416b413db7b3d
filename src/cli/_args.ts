import type { ArgDef, ArgsDef } from "citty";
import { didYouMean } from "../suggest.ts";
import { cliError } from "./_shared.ts";

/** Options of {@link parseArgs}. */
export interface ParseOptions {
	/** String options that may repeat; their values are collected in an array (default `hook`). */
	repeatable?: readonly string[];
	/** After this many positionals everything is positional, dashes included (`command <name> [args…]`). */
	restAfter?: number | undefined;
}

/** Parsed arguments: `_` holds every positional in order, plus one entry per defined argument. */
export type ParsedArgs = { _: string[] } & Record<string, string | boolean | string[] | undefined>;

const aliasesOf = (def: ArgDef): string[] => ("alias" in def && def.alias ? ([] as string[]).concat(def.alias) : []);

/** `unknown option --jsn (did you mean "--json"?)`, or where the command's options are listed. */
export function unknownOption(flag: string, known: readonly string[], command: string): string {
	const near = didYouMean(flag, known);
	return `unknown option ${flag}${near || `; see xcsh-hooks ${command} --help`}`;
}

/**
 * Parses `rawArgs` against a citty argument definition. Our own parser, not citty's: citty's loads
 * `node:util` (≈1.2 ms of every start-up, docs/contract.md#performance-budgets). Supports `--name value`, `--name=value`, `-a value`,
 * booleans with `--no-name`, aliases, enums, required positionals, and `--` to end the options.
 * Unlike citty it refuses unknown options, so a typo is an error instead of being ignored, and it
 * collects repeatable options (`--hook a --hook b`) instead of keeping the last one.
 */
export function parseArgs(rawArgs: readonly string[], defs: ArgsDef, command: string, options: ParseOptions = {}): ParsedArgs {
	const repeatable = new Set(options.repeatable ?? ["hook"]);
	const byFlag = new Map<string, [name: string, def: ArgDef]>();
	for (const [name, def] of Object.entries(defs)) {
		if (def.type === "positional") continue;
		byFlag.set(name.length === 1 ? `-${name}` : `--${name}`, [name, def]);
		for (const alias of aliasesOf(def)) byFlag.set(alias.length === 1 ? `-${alias}` : `--${alias}`, [name, def]);
	}
	const parsed: ParsedArgs = { _: [] };
	for (const [name, def] of Object.entries(defs)) if (def.default !== undefined) parsed[name] = def.default;

	for (let i = 0; i < rawArgs.length; i++) {
		const arg = rawArgs[i] as string;
		if (arg === "--" || (options.restAfter !== undefined && parsed._.length >= options.restAfter)) {
			parsed._.push(...rawArgs.slice(arg === "--" ? i + 1 : i));
			break;
		}
		if (!arg.startsWith("-") || arg === "-") {
			parsed._.push(arg);
			continue;
		}
		const eq = arg.indexOf("=");
		const flag = eq > 0 ? arg.slice(0, eq) : arg;
		const negated = flag.startsWith("--no-") ? byFlag.get(`--${flag.slice(5)}`) : undefined;
		if (negated?.[1].type === "boolean" && eq < 0) {
			parsed[negated[0]] = false;
			continue;
		}
		const found = byFlag.get(flag);
		if (!found) throw cliError(unknownOption(flag, [...byFlag.keys()], command));
		const [name, def] = found;
		if (def.type === "boolean") {
			parsed[name] = eq > 0 ? arg.slice(eq + 1) !== "false" : true;
			continue;
		}
		const value = eq > 0 ? arg.slice(eq + 1) : rawArgs[++i];
		if (value === undefined) throw cliError(`${flag} needs a value`);
		if (def.type === "enum" && def.options && !def.options.includes(value))
			throw cliError(`${flag} ${value}: expected one of ${def.options.join(", ")}`);
		parsed[name] = repeatable.has(name) ? [...((parsed[name] as string[] | undefined) ?? []), value] : value;
	}

	let next = 0;
	for (const [name, def] of Object.entries(defs)) {
		if (def.type !== "positional") continue;
		const value = parsed._[next++];
		if (value !== undefined) parsed[name] = value;
		else if (def.required !== false && def.default === undefined)
			throw cliError(`missing ${name.toUpperCase()}; see xcsh-hooks ${command} --help`);
	}
	return parsed;
}
