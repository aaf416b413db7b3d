import { homedir, tmpdir } from "node:os";
import type { HookContext, ToolCallEvent, ToolCallEventResult } from "../hooks/types.ts";
import { AnalysisError, analyzeCommandLine } from "./analyze.ts";
import { resolveFrom } from "./words.ts";
import { DEFAULT_PACKS, PACKS, type PackName } from "./packs/index.ts";
import { loadShellParser } from "./parser.ts";
import { prescanFor } from "./prescan.ts";
import type { RuleContext, RulePack, ShellCommand, ShellDecision, ShellRule } from "./types.ts";

/** Options of {@link createShellGuard}. */
export interface ShellGuardOptions {
	/** The packs to run, by name or as your own; default `["shell", "git", "filesystem"]`. */
	packs?: ReadonlyArray<PackName | RulePack>;
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
	/**
	 * Whether `command`, run in `cwd`, must be blocked, and by which rule. Never throws. A line no
	 * rule could block is cleared without a parse (its `commands` empty) unless `analyze` is set.
	 */
	decide(command: string, options?: { cwd?: string; analyze?: boolean }): Promise<ShellDecision>;
	/** A `tool_call` handler: `pi.on("tool_call", guard.handler)`. */
	handler(event: ToolCallEvent, ctx: HookContext): Promise<ToolCallEventResult | undefined>;
	/** The rules it runs, in order. */
	readonly rules: readonly ShellRule[];
}

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
	const packs = (options.packs ?? DEFAULT_PACKS).map((pack) => (typeof pack === "string" ? PACKS[pack] : pack));
	for (const pack of packs) if (!pack) throw new Error(`createShellGuard: unknown pack; packs: ${Object.keys(PACKS).join(", ")}`);
	const rules = [...packs.filter((pack) => !disabled.has(pack.name)).flatMap((pack) => pack.rules), ...(options.rules ?? [])].filter(
		(rule) => !disabled.has(rule.id),
	);
	const maxLength = options.maxLength ?? 100_000;
	// A line no rule could block needs no parse (nor the parser's load): see prescan.ts.
	const prescan = prescanFor(rules);
	const tools = options.tools ?? ["bash"];
	const home = (process.env.HOME || homedir()).replace(/\/+$/, "") || "/";

	const contextFor = (command: ShellCommand, baseCwd: string): RuleContext => {
		const allowed = (options.allowPaths ?? []).map((path) => resolveFrom(baseCwd, path, home)).filter((p): p is string => p !== undefined);
		return {
			cwd: command.cwd,
			home,
			project: baseCwd,
			resolve: (path) => resolveFrom(command.cwd, path, home),
			// Inside a temp dir, but never the project (or home) itself, wherever that lies.
			isTemp: (path) =>
				TEMP_ROOTS.some((root) => path.startsWith(`${root}/`) && path.length > root.length + 1) &&
				!related(path, baseCwd) &&
				!related(path, home),
			isAllowed: (path) => allowed.some((root) => path === root || path.startsWith(`${root.replace(/\/$/, "")}/`)),
		};
	};

	const judge = (commands: ShellCommand[], cwd: string): ShellDecision => {
		for (const command of commands) {
			const context = contextFor(command, cwd);
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
			return judge(analyzeCommandLine(parser, line, cwd, home), cwd);
		} catch (error) {
			if (!(error instanceof AnalysisError)) throw error;
			if (error.rule === "parse/error" && options.onParseError === "allow") return { block: false, commands: [] };
			return { block: true, reason: error.message, rule: error.rule, commands: [] };
		}
	};

	const decide = async (command: string, at: { cwd?: string; analyze?: boolean } = {}): Promise<ShellDecision> => {
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
		if (prescan && !at.analyze && !prescan(line)) return { block: false, commands: [] };
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
