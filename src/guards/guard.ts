import { homedir, tmpdir } from "node:os";
import type { HookContext, ToolCallEvent, ToolCallEventResult } from "../hooks/types.ts";
import { AnalysisError, analyzeCommandLine } from "./analyze.ts";
import { resolveFrom } from "./words.ts";
import { DEFAULT_PACKS, PACKS, type PackName } from "./packs/index.ts";
import { loadShellParser } from "./parser.ts";
import type { NestedRun, RuleContext, RulePack, ShellCommand, ShellDecision, ShellRule } from "./types.ts";
import type { Parser } from "web-tree-sitter";

/** Options of {@link createShellGuard}. */
export interface ShellGuardOptions {
	/** The packs to run, by name or as your own; default `["shell", "git", "filesystem"]`; `"all"`: every built-in pack. */
	packs?: ReadonlyArray<PackName | RulePack> | "all";
	/** Pack names or rule ids to switch off: `["git"]`, `["git/branch-force-delete"]`. */
	disable?: readonly string[];
	/** Paths (relative to the command's directory, or absolute) that may be deleted: `["build", "dist"]`. */
	allowPaths?: readonly string[];
	/** Rules of your own, run after the packs. */
	rules?: readonly ShellRule[];
	/** What to do with a command line the parser cannot read: `"block"` (default) or `"allow"`. */
	onParseError?: "block" | "allow";
	/** Longest command line analysed, in characters; longer ones are blocked. Default 100,000. */
	maxLength?: number;
	/** The tools whose `command` input the handler checks; default `["bash"]`. */
	tools?: readonly string[];
}

/** A guard: decides about command lines, and gives a `tool_call` handler that applies it. */
export interface ShellGuard {
	/** Whether `command`, run in `cwd`, must be blocked, and by which rule. Never throws. */
	decide(command: string, options?: { cwd?: string }): Promise<ShellDecision>;
	/** A `tool_call` handler: `pi.on("tool_call", guard.handler)`. */
	handler(event: ToolCallEvent, ctx: HookContext): Promise<ToolCallEventResult | undefined>;
	/** The rules it runs, in order. */
	readonly rules: readonly ShellRule[];
}

/** Where a nested command line runs when the command that runs it has no known directory. */
const UNKNOWN_CWD = "/\u0000unknown-cwd";
/** How many command lines packs may find inside others (aliases that call aliases…) before the guard gives up. */
const MAX_NESTED = 64;

const TEMP_ROOTS = [...new Set(["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", tmpdir().replace(/\/+$/, "")])];

/** Whether one path is the other or lies inside it (either way). */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** Letters from other scripts that look like Latin ones, folded for a second look at look-alike commands. */
const CONFUSABLES: Record<string, string> = {
	а: "a",
	е: "e",
	о: "o",
	р: "p",
	с: "c",
	у: "y",
	х: "x",
	і: "i",
	ѕ: "s",
	ј: "j",
	ԁ: "d",
	ɡ: "g",
	һ: "h",
	ⅼ: "l",
	м: "m",
	т: "t",
	к: "k",
	ո: "n",
	"‐": "-",
	"‑": "-",
	"‒": "-",
	"–": "-",
	"—": "-",
	"―": "-",
	"−": "-",
	"\u00a0": " ",
	"\u2007": " ",
	"\u202f": " ",
};

function fold(text: string): string {
	let out = "";
	for (const char of text.normalize("NFKC")) out += CONFUSABLES[char] ?? char;
	return out.replace(/[\u200b-\u200d\u2060\ufeff]/g, "");
}

/**
 * A destructive-command guard for shell tools: every command of the line, unwrapped
 * (`sudo`, `bash -c`, `xargs`, `find -exec`…), is judged by the rules of its packs.
 */
export function createShellGuard(options: ShellGuardOptions = {}): ShellGuard {
	const disabled = new Set(options.disable ?? []);
	const chosen = options.packs === "all" ? (Object.keys(PACKS) as PackName[]) : (options.packs ?? DEFAULT_PACKS);
	if (!Array.isArray(chosen)) throw new Error(`createShellGuard: packs must be a list of packs or "all"`);
	const packs = chosen.map((pack) => (typeof pack === "string" ? PACKS[pack as PackName] : pack));
	for (const pack of packs) if (!pack) throw new Error(`createShellGuard: unknown pack; packs: ${Object.keys(PACKS).join(", ")}`);
	const active = packs.filter((pack) => !disabled.has(pack.name));
	const rules = [...active.flatMap((pack) => pack.rules), ...(options.rules ?? [])].filter((rule) => !disabled.has(rule.id));
	const nesters = active.filter((pack) => typeof pack.nested === "function");
	const maxLength = options.maxLength ?? 100_000;
	const tools = options.tools ?? ["bash"];
	const home = (process.env.HOME || homedir()).replace(/\/+$/, "") || "/";

	const contextFor = (command: ShellCommand, baseCwd: string): RuleContext => {
		const allowed = (options.allowPaths ?? []).map((path) => resolveFrom(baseCwd, path, home)).filter((p): p is string => p !== undefined);
		return {
			cwd: command.cwd,
			home,
			resolve: (path) => resolveFrom(command.cwd, path, home),
			// Inside a temp dir, but never the project (or home) itself, wherever that lies.
			isTemp: (path) =>
				TEMP_ROOTS.some((root) => path.startsWith(`${root}/`) && path.length > root.length + 1) &&
				!related(path, baseCwd) &&
				!related(path, home),
			isAllowed: (path) => allowed.some((root) => path === root || path.startsWith(`${root.replace(/\/$/, "")}/`)),
			project: baseCwd,
		};
	};

	/** The commands a pack says a command runs (a git `!alias`, `rebase --exec`), analyzed like the line itself. */
	const nestedCommands = (parser: Parser, command: ShellCommand, run: NestedRun): ShellCommand[] => {
		const script = "script" in run ? run.script : run.argv.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
		const found = analyzeCommandLine(parser, script, command.cwd ?? UNKNOWN_CWD, home);
		return found.map((inner) => ({
			...inner,
			via: [...command.via, run.via, ...inner.via],
			cwd: inner.cwd === UNKNOWN_CWD || inner.cwd?.startsWith(`${UNKNOWN_CWD}/`) ? undefined : inner.cwd,
			...(command.env || inner.env ? { env: { ...command.env, ...inner.env } } : {}),
		}));
	};

	const judge = (parser: Parser, commands: ShellCommand[], cwd: string): ShellDecision => {
		let expansions = 0;
		for (let at = 0; at < commands.length; at++) {
			const command = commands[at] as ShellCommand;
			const context = contextFor(command, cwd);
			for (const pack of nesters)
				for (const run of pack.nested?.(command, context) ?? []) {
					if (++expansions > MAX_NESTED)
						throw new AnalysisError("input/too-deep", "command lines run inside others nest too deeply to check");
					commands.push(...nestedCommands(parser, command, run));
				}
			for (const rule of rules) {
				if (rule.programs && !rule.programs.includes(command.program)) continue;
				const verdict = rule.test(command, context);
				if (verdict) return { block: true, reason: typeof verdict === "string" ? verdict : rule.reason, rule: rule.id, commands };
			}
		}
		return { block: false, commands };
	};

	const analyse = async (line: string, cwd: string): Promise<ShellDecision> => {
		const parser = await loadShellParser();
		try {
			return judge(parser, analyzeCommandLine(parser, line, cwd, home), cwd);
		} catch (error) {
			if (!(error instanceof AnalysisError)) throw error;
			if (error.rule === "parse/error" && options.onParseError === "allow") return { block: false, commands: [] };
			return { block: true, reason: error.message, rule: error.rule, commands: [] };
		}
	};

	const decide = async (command: string, at: { cwd?: string } = {}): Promise<ShellDecision> => {
		const cwd = at.cwd ?? process.cwd();
		if (typeof command !== "string") return { block: true, reason: "the command is not a string", rule: "input/not-text", commands: [] };
		if (command.length > maxLength)
			return {
				block: true,
				reason: `the command is longer than ${maxLength} characters, too long to check`,
				rule: "input/too-long",
				commands: [],
			};
		if (command.includes("\0"))
			return { block: true, reason: "the command holds a NUL character, which shells cut it at", rule: "input/nul", commands: [] };
		const line = command.toWellFormed();
		try {
			const decision = await analyse(line, cwd);
			// Look-alikes (Cyrillic letters, en dashes, no-break spaces): block what the folded text would.
			if (decision.block || !/[^\x00-\x7f]/.test(line)) return decision;
			const folded = await analyse(fold(line), cwd);
			return folded.block && folded.rule !== "parse/error"
				? { ...folded, reason: `unicode look-alike of: ${folded.reason}`, commands: decision.commands }
				: decision;
		} catch (error) {
			return {
				block: true,
				reason: `the guard failed to check the command (${error instanceof Error ? error.message : String(error)})`,
				rule: "guard/failure",
				commands: [],
			};
		}
	};

	return {
		rules,
		decide,
		async handler(event, ctx) {
			if (!tools.includes(event.toolName)) return undefined;
			const decision = await decide(String(event.input.command ?? ""), { cwd: ctx.cwd });
			if (!decision.block) return undefined;
			return { block: true, reason: `${decision.reason} [${decision.rule}]` };
		},
	};
}
