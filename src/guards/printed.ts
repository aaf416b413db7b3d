/** Reading a syntax tree without walking it: what a pipeline stage prints, and where a tree is broken. */
import type { Node } from "web-tree-sitter";
import { decodeAnsiC } from "./words.ts";

export /** The first error in a tree, as a one-line description with where it is. */
function describeError(root: Node, source: string): string {
	const stack: Node[] = [root];
	while (stack.length > 0) {
		const node = stack.pop() as Node;
		if (node.type === "ERROR" || node.isMissing) {
			const at = node.startIndex;
			const near = source.slice(Math.max(0, at - 10), at + 10).replace(/\s+/g, " ");
			return node.isMissing ? `missing ${node.type} near "${near}"` : `unexpected text near "${near}"`;
		}
		if (node.hasError) for (let i = node.childCount - 1; i >= 0; i--) stack.push(node.child(i) as Node);
	}
	return "a syntax error";
}

/** What a stage prints when that is plain from the text: `echo`/`printf` of static words, `cat` of a heredoc. */
export function printedBy(stage: Node, wordOf: (node: Node | null | undefined) => { text: string; computed: boolean }): string | undefined {
	let body = stage;
	let heredoc: string | undefined;
	if (stage.type === "redirected_statement") {
		body = stage.childForFieldName("body") ?? stage;
		for (const child of stage.namedChildren)
			if (child?.type === "heredoc_redirect") heredoc = child.namedChildren.find((c) => c?.type === "heredoc_body")?.text ?? "";
			else if (child?.type === "herestring_redirect") heredoc = `${wordOf(child.namedChildren[0]).text}\n`;
	}
	if (body.type !== "command") return undefined;
	const words = body.namedChildren.filter((c) => c && c.type !== "variable_assignment" && !c.type.endsWith("_redirect")) as Node[];
	const argv = words.map((w) => wordOf(w.type === "command_name" ? w.namedChildren[0] : w));
	if (argv.length === 0 || argv.some((w) => w.computed)) return undefined;
	const [name, ...args] = argv.map((w) => w.text);
	if (name === "cat" && args.length === 0) return heredoc;
	if (name === "echo") {
		while (args[0] && /^-[neE]+$/.test(args[0])) args.shift();
		return `${args.join(" ")}\n`;
	}
	if (name === "printf" && args.length > 0) {
		const [format, ...rest] = args as [string, ...string[]];
		return decodeAnsiC(format.replace(/%[sbd]/g, () => rest.shift() ?? "")) + rest.join(" ");
	}
	return undefined;
}
