/**
 * From a command line to the simple commands that will run: every command of lists, pipelines,
 * subshells, compound statements, functions and command or process substitutions, with what runs
 * code unwrapped (see `commands.ts`). Arguments are read the way the shell reads them (quotes
 * removed, escapes applied), so data stays data: `echo 'rm -rf /'` is `echo` with one argument.
 */
import type { Node, Parser } from "web-tree-sitter";
import { type Analysis, type Scope, unreadableCommand } from "./analysis.ts";
import { runCommand } from "./commands.ts";
import { checkHeredocs, plainDelimiters } from "./heredoc.ts";
import { copyDirs, newDirs, settle, type Var } from "./scope.ts";
import type { ShellCommand } from "./types.ts";
import { describeError, printedBy } from "./printed.ts";
import { substitutionValue } from "./values.ts";
import { decodeAnsiC, unescapeDouble } from "./words.ts";

/** How deep the syntax tree may nest, and how many scripts inside scripts (`bash -c "eval '…'"`). */
const MAX_TREE_DEPTH = 300;
const MAX_SCRIPT_DEPTH = 12;

export interface Word {
	text: string;
	computed: boolean;
	/** A variable that may be empty (its `mktemp` may have failed) is all or part of it. */
	empty?: boolean;
}

/** Variables a command line reads as programs without setting them: what they name is the user's choice. */
const USER_PROGRAMS = new Set(["EDITOR", "VISUAL", "PAGER", "GIT_EDITOR", "SUDO_EDITOR", "MANPAGER", "BROWSER"]);

/** Analyzes one command line; throws an `unreadableCommand` error (analysis.ts) for what it cannot read. */
export function analyzeCommandLine(parser: Parser, source: string, cwd: string, home: string): ShellCommand[] {
	const analyzer = new Analyzer(parser);
	const vars = new Map<string, Var>();
	if (process.env.CDPATH) vars.set("CDPATH", { text: process.env.CDPATH, computed: false });
	analyzer.script(source, {
		via: [],
		stdinUnknown: false,
		dirs: newDirs(cwd),
		vars,
		functions: new Map(),
		conditional: false,
		home,
		scripts: 0,
		calls: 0,
	});
	return analyzer.commands;
}

/** A copy of the scope for a subshell: what it changes (directory, variables) stays inside. */
const subshell = (scope: Scope): Scope => ({
	...scope,
	stdin: undefined,
	stdinUnknown: false,
	dirs: copyDirs(scope.dirs),
	vars: new Map(scope.vars),
});

export class Analyzer implements Analysis {
	readonly commands: ShellCommand[] = [];

	constructor(private readonly parser: Parser) {}

	private parse(source: string, scope: Scope, check = true) {
		const tree = this.parser.parse(source);
		if (!tree) throw unreadableCommand("parse/error", "the shell parser gave up on this command");
		if (check && tree.rootNode.hasError) {
			const where = describeError(tree.rootNode, source);
			tree.delete();
			throw unreadableCommand(
				"parse/error",
				`cannot parse ${scope.scripts > 0 ? "a script it runs" : "the command"} (${where}), so it cannot be checked`,
			);
		}
		return tree;
	}

	/** Parses and walks a script: the command line itself, or one it runs (`bash -c`, `eval`, a piped script). */
	script(source: string, scope: Scope): void {
		if (scope.scripts > MAX_SCRIPT_DEPTH) throw unreadableCommand("input/too-deep", "scripts nested too deeply to check");
		let tree = this.parse(source, scope, !source.includes("<<"));
		try {
			// Heredoc delimiters written as bash reads them first: the parser errs on some (`<<'E'"O"F`).
			const plain = plainDelimiters(tree, source);
			if (plain !== source || tree.rootNode.hasError) {
				tree.delete();
				tree = this.parse(plain, scope);
			}
			checkHeredocs(tree, plain);
			this.walk(tree.rootNode, { ...scope, scripts: scope.scripts + 1 }, 0);
		} finally {
			tree.delete();
		}
	}

	/** What a script prints when that is plain from its text (`<(echo …)`), `undefined` when not. */
	printedBy(source: string): string | undefined {
		const tree = this.parser.parse(source);
		if (!tree) return undefined;
		try {
			const statements = tree.rootNode.namedChildren.filter((node) => node && node.type !== "comment") as Node[];
			if (tree.rootNode.hasError || statements.length !== 1) return undefined;
			const only = statements[0] as Node;
			return this.printed(only.type === "pipeline" ? (only.namedChildren.at(-1) as Node) : only);
		} finally {
			tree.delete();
		}
	}

	walk(node: Node, scope: Scope, depth: number): void {
		if (depth > MAX_TREE_DEPTH) throw unreadableCommand("input/too-deep", "the command nests too deeply to check");
		switch (node.type) {
			case "command":
				this.command(node, scope, depth, undefined, []);
				return;
			case "redirected_statement":
				this.redirected(node, scope, depth);
				return;
			case "pipeline":
				this.pipeline(node.namedChildren, scope, depth, undefined);
				return;
			case "list":
				this.list(node, scope, depth);
				return;
			case "subshell":
			case "command_substitution":
			case "process_substitution":
				this.children(node, subshell(scope), depth);
				return;
			case "function_definition": {
				const name = node.childForFieldName("name")?.text;
				const body = node.childForFieldName("body");
				if (name && body) scope.functions.set(name, body);
				// Judged once where it is defined; a call walks it again where it runs.
				if (body) this.walk(body, { ...subshell(scope), conditional: true }, depth + 1);
				return;
			}
			case "variable_assignment":
				this.assign(node, scope, depth, scope.conditional);
				return;
			case "variable_assignments":
			case "declaration_command":
				for (const child of node.namedChildren)
					if (child?.type === "variable_assignment") this.assign(child, scope, depth, scope.conditional);
					else if (child?.type === "variable_name") scope.vars.delete(child.text);
					else if (child) this.wordOf(child, scope, depth);
				return;
			case "for_statement": {
				const name = node.childForFieldName("variable")?.text;
				if (name) scope.vars.set(name, { text: "", computed: true });
				this.children(node, { ...scope, conditional: true }, depth);
				return;
			}
			case "unset_command":
				for (const child of node.namedChildren) if (child) scope.vars.set(child.text, { text: "", computed: true });
				return;
			case "if_statement":
			case "while_statement":
			case "c_style_for_statement":
			case "case_statement":
				this.children(node, { ...scope, conditional: true }, depth);
				return;
			case "comment":
				return;
			default:
				this.children(node, scope, depth);
				return;
		}
	}

	/** Each statement in turn; between statements, a `cd` that may have failed leaves both directories possible. */
	children(node: Node, scope: Scope, depth: number): void {
		// What failed before this block (`cd x && { …; }`) is not this block's to merge: it stays pending.
		const pending = scope.dirs.failed;
		scope.dirs.failed = [];
		for (const child of node.namedChildren) {
			if (!child) continue;
			this.walk(child, scope, depth + 1);
			settle(scope.dirs);
		}
		scope.dirs.failed = pending;
	}

	/** `a && b`: `b` runs where `a` succeeded. `a || b`: where it may have failed. */
	private list(node: Node, scope: Scope, depth: number): void {
		const [left, right] = node.namedChildren;
		const op = node.children.find((child) => child && !child.isNamed)?.text;
		if (left) this.walk(left, scope, depth + 1);
		if (op !== "&&") settle(scope.dirs);
		else if (left?.type === "variable_assignment" || left?.type === "variable_assignments")
			for (const name of left.descendantsOfType("variable_name")) {
				const known = name && scope.vars.get(name.text);
				if (known) known.mayBeEmpty = false;
			}
		if (right) this.walk(right, { ...scope, conditional: true }, depth + 1);
	}

	/** `NAME=value` as a statement: the line may read it later (`d=$(mktemp -d); rm -rf "$d"`). */
	private assign(node: Node, scope: Scope, depth: number, conditional: boolean): void {
		const target = node.childForFieldName("name");
		const value = node.childForFieldName("value");
		const word = value ? this.valueOf(value, scope, depth) : { text: "", computed: false };
		const name = target?.type === "subscript" ? target.namedChildren[0]?.text : target?.text;
		if (!name) return;
		// `d+=x`, `d[0]=x`, or one that may not happen: what `d` holds is no longer known.
		const partial = target?.type === "subscript" || node.children.some((child) => child?.text === "+=");
		scope.vars.set(name, conditional || partial ? { text: "", computed: true } : word);
	}

	/** A value: `$(mktemp -d)` is a fresh temp dir, `$(command -v X)` names program X; other substitutions are computed. */
	private valueOf(node: Node, scope: Scope, depth: number): Var {
		const word = this.wordOf(node, scope, depth);
		// `"$(mktemp -d)"` reads as `$(mktemp -d)`.
		if (node.type === "string" && node.namedChildren.length === 1 && node.namedChildren[0]?.type === "command_substitution")
			return { ...word, ...this.valueOf(node.namedChildren[0], scope, depth) };
		if (node.type !== "command_substitution") return word;
		const inner = node.namedChildren.filter((child) => child?.type !== "comment");
		if (inner.length !== 1 || inner[0]?.type !== "command") return word;
		const argv = (inner[0] as Node).namedChildren.map((child) =>
			this.wordOf(child?.type === "command_name" ? child.namedChildren[0] : child, null),
		);
		if (argv.some((w) => w.computed)) return word;
		return substitutionValue(argv.map((w) => w.text)) ?? word;
	}

	private inner(node: Node, scope: Scope, depth: number): void {
		for (const child of node.namedChildren) if (child) this.walk(child, scope, depth + 1);
	}

	/** A pipeline: each stage reads what the one before prints, when that is known (`echo …`, `cat <<EOF`). */
	pipeline(stages: Array<Node | null>, scope: Scope, depth: number, firstInput: string | undefined): void {
		let input: { text?: string | undefined; unknown: boolean } =
			firstInput === undefined ? { text: scope.stdin, unknown: scope.stdinUnknown } : { text: firstInput, unknown: false };
		for (const stage of stages) {
			if (!stage) continue;
			this.walk(stage, { ...subshell(scope), stdin: input.text, stdinUnknown: input.unknown }, depth + 1);
			const printed = this.printed(stage);
			input = printed === undefined ? { unknown: true } : { text: printed, unknown: false };
		}
	}

	/** What a stage prints when that is plain from the text: `echo`/`printf` of static words, `cat` of a heredoc. */
	printed(stage: Node): string | undefined {
		return printedBy(stage, (node) => this.wordOf(node, null));
	}

	/** A statement with redirections: heredocs, here-strings and `< <(…)` become its standard input. */
	private redirected(node: Node, scope: Scope, depth: number): void {
		let stdin: { text: string | undefined } | undefined;
		const redirects: ShellCommand["redirects"] = [];
		const later: Array<{ node: Node; piped: boolean }> = [];
		const body = node.childForFieldName("body");
		for (const child of node.namedChildren) {
			if (!child || child.id === body?.id) continue;
			if (child.type === "heredoc_redirect") {
				let op = "";
				for (const part of child.children) {
					if (!part) continue;
					if (!part.isNamed) op = part.text;
					else if (part.type === "heredoc_body") {
						const strip = child.children.some((c) => c?.text === "<<-");
						stdin = { text: strip ? part.text.replace(/^\t+/gm, "") : part.text };
						this.inner(part, scope, depth + 1); // `$(…)` in an unquoted heredoc runs
					} else if (part.type !== "heredoc_start" && part.type !== "heredoc_end") {
						const lead = part.type === "pipeline" ? part.child(0) : null;
						const piped = op === "|" || op === "|&" || (lead !== null && !lead.isNamed && /^\|&?$/.test(lead.text));
						later.push({ node: part, piped });
					}
				}
			} else if (child.type === "herestring_redirect") stdin = { text: `${this.wordOf(child.namedChildren[0], scope, depth).text}\n` };
			else if (child.type === "file_redirect") {
				const fed = this.fedBy(child, scope, depth);
				if (fed) stdin = fed;
				else redirects.push(this.redirect(child, scope, depth));
			} else this.walk(child, scope, depth + 1);
		}
		const own = stdin === undefined ? scope : { ...scope, stdin: stdin.text, stdinUnknown: stdin.text === undefined };
		if (body?.type === "command") this.command(body, own, depth, undefined, redirects);
		else if (body) {
			// `a && b > /dev/sda`, `{ a; b; } > f`: the redirection reaches every command of the body (to err on the safe side).
			const before = this.commands.length;
			this.walk(body, own, depth + 1);
			if (redirects.length > 0) for (const inner of this.commands.slice(before)) inner.redirects = [...inner.redirects, ...redirects];
		}
		for (const { node: next, piped } of later) {
			if (!piped) this.walk(next, scope, depth + 1);
			else this.pipeline(next.type === "pipeline" ? next.namedChildren : [next], scope, depth, this.printed(node) ?? "");
		}
	}

	/** `< <(…)` or `< /dev/stdin`: what the redirection feeds in, known or not; `undefined` for any other. */
	private fedBy(node: Node, scope: Scope, depth: number): { text: string | undefined } | undefined {
		const op = node.children.find((c) => c && !c.isNamed)?.text;
		const target = node.namedChildren.filter((c) => c && c.type !== "file_descriptor").at(-1);
		if (op !== "<" || !target) return undefined;
		if (target.type === "process_substitution") {
			this.walk(target, scope, depth + 1);
			return { text: this.printedBy(target.text.slice(2, -1)) };
		}
		return undefined;
	}

	private redirect(node: Node, scope: Scope, depth: number): { op: string; target: string } {
		const op = node.children.find((c) => c && !c.isNamed)?.text ?? ">";
		const target = node.namedChildren.filter((c) => c && c.type !== "file_descriptor").at(-1);
		return { op, target: this.wordOf(target ?? null, scope, depth).text };
	}

	/** A simple command: its words read as the shell would, then unwrapped. */
	private command(node: Node, scope: Scope, depth: number, stdin: string | undefined, redirects: ShellCommand["redirects"]): void {
		const words: Word[] = [];
		const assignments: Array<[string, Var]> = [];
		let own = stdin === undefined ? scope : { ...scope, stdin, stdinUnknown: false };
		for (const child of node.namedChildren) {
			if (!child) continue;
			if (child.type === "variable_assignment") {
				const name = child.childForFieldName("name")?.text;
				const value = child.childForFieldName("value");
				const word = value ? this.valueOf(value, scope, depth) : { text: "", computed: false };
				if (name) assignments.push([name, word]);
			} else if (child.type === "herestring_redirect")
				own = { ...own, stdin: `${this.wordOf(child.namedChildren[0], scope, depth).text}\n`, stdinUnknown: false };
			else if (child.type === "file_redirect") {
				const fed = this.fedBy(child, scope, depth);
				if (fed) own = { ...own, stdin: fed.text, stdinUnknown: fed.text === undefined };
				else redirects.push(this.redirect(child, scope, depth));
			} else if (child.type === "command_name") words.push(this.programWord(child.namedChildren[0] ?? child, scope, depth));
			else words.push(this.wordOf(child, scope, depth));
		}
		if (words.length === 0) return;
		if (assignments.length > 0)
			own = { ...own, vars: new Map([...scope.vars, ...assignments]), assigned: assignments.map(([name, v]) => `${name}=${v.text}`) };
		runCommand(
			this,
			words.map((w) => w.text),
			words.map((w) => w.computed),
			own,
			redirects,
			depth,
		);
	}

	/** The program word: `"$EDITOR"` names the user's editor, not code the guard must fear. */
	private programWord(node: Node, scope: Scope, depth: number): Word {
		const word = this.wordOf(node, scope, depth);
		if (!word.computed) return word;
		const name = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(node.text)?.[1];
		if (name && USER_PROGRAMS.has(name) && !scope.vars.has(name)) return { text: `$${name}`, computed: false };
		// `$SHELL -c '…'` is read as the shell it is, its script judged.
		if ((name === "SHELL" || name === "BASH") && !scope.vars.has(name)) return { text: name === "BASH" ? "bash" : "sh", computed: false };
		return word;
	}

	/** A word as the shell reads it: quotes removed, escapes applied; expansions kept as written, marked computed. */
	wordOf(node: Node | null | undefined, scope: Scope | null, depth = 0): Word {
		if (!node) return { text: "", computed: false };
		switch (node.type) {
			case "word":
				return { text: node.text.replace(/\\(.)/gs, (_, c: string) => (c === "\n" ? "" : c)), computed: false };
			case "raw_string":
				return { text: node.text.slice(1, -1), computed: false };
			case "ansi_c_string":
				return { text: decodeAnsiC(node.text.slice(2, -1)), computed: false };
			case "number":
			case "heredoc_start":
				return { text: node.text, computed: false };
			case "string":
			case "translated_string":
			case "concatenation": {
				let text = "";
				let computed = false;
				let empty = false;
				for (const part of node.namedChildren) {
					if (!part) continue;
					if (part.type === "string_content") text += unescapeDouble(part.text);
					else {
						const inner = this.wordOf(part, scope, depth + 1);
						text += inner.text;
						computed ||= inner.computed;
						empty ||= inner.empty === true;
					}
				}
				if (!empty) return { text, computed };
				// `"$d"/x` where `d` may be empty (its `mktemp` failed) may be `/x`: not known.
				const alone = node.namedChildren.length === 1;
				return alone ? { text, computed, empty } : { text, computed: true };
			}
			case "simple_expansion":
			case "expansion": {
				const known = scope?.vars.get(expansionName(node) ?? "");
				if (known && !known.computed && /^[\w@%+=:,./~-]+$/.test(known.text))
					return { text: known.text, computed: false, ...(known.mayBeEmpty ? { empty: true } : {}) };
				if (scope) this.inner(node, scope, depth + 1);
				return { text: node.text, computed: true };
			}
			case "command_substitution":
			case "process_substitution":
				if (scope) this.walk(node, scope, depth + 1);
				return { text: node.text, computed: true };
			default:
				if (scope) this.inner(node, scope, depth + 1);
				return { text: node.text, computed: true };
		}
	}
}

/** `$d` and `${d}` → `d`; `${d:-x}` and the like are not plain reads → `undefined`. */
const expansionName = (node: Node) => /^\$\{?([A-Za-z_]\w*)\}?$/.exec(node.text)?.[1];
