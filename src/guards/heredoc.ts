/**
 * Heredoc delimiters as bash reads them. Bash removes quotes from the word after `<<` (`'E'"O"F`
 * is `EOF`, its body not expanded) and ends the body at the first line equal to it (tabs stripped
 * for `<<-`). The parser takes such words apart differently, so the command line is given to it
 * again with each delimiter written plainly (`'EOF'`), and what it then reads is checked against
 * bash's reading; where they still differ, the line is refused rather than guessed at.
 */
import type { Node, Tree } from "web-tree-sitter";
import { unreadableCommand } from "./analysis.ts";

interface Delimiter {
	/** The word as written, from `start` to `end` in the source. */
	start: number;
	end: number;
	text: string;
	quoted: boolean;
	strip: boolean;
}

/** The word after a `<<` operator that ends at `from`, read as bash reads it. */
function readDelimiter(source: string, from: number, strip: boolean): Delimiter {
	let i = from;
	while (source[i] === " " || source[i] === "\t") i++;
	const start = i;
	let text = "";
	let quoted = false;
	while (i < source.length && !/[\s;&|<>()]/.test(source[i] as string)) {
		const char = source[i] as string;
		if (char === "'" || char === '"' || (char === "$" && source[i + 1] === "'")) {
			quoted = true;
			if (char === "$") i++;
			const close = source[i] as string;
			i++;
			while (i < source.length && source[i] !== close) {
				if (close === '"' && source[i] === "\\" && /["\\$`]/.test(source[i + 1] ?? "")) i++;
				text += source[i];
				i++;
			}
			i++;
		} else if (char === "\\") {
			quoted = true;
			text += source[i + 1] ?? "";
			i += 2;
		} else {
			text += char;
			i++;
		}
	}
	return { start, end: i, text, quoted, strip };
}

function heredocNodes(root: Node): Node[] {
	const out: Node[] = [];
	const stack: Node[] = [root];
	while (stack.length > 0) {
		const node = stack.pop() as Node;
		if (node.type === "heredoc_redirect") out.push(node);
		for (let i = node.childCount - 1; i >= 0; i--) stack.push(node.child(i) as Node);
	}
	return out;
}

/** The delimiter bash reads at each heredoc of the tree. */
function delimiters(root: Node, source: string): Array<{ node: Node; delimiter: Delimiter }> {
	return heredocNodes(root).map((node) => {
		const op = node.children.find((child) => child && !child.isNamed && child.text.startsWith("<<"));
		const end = op ? op.endIndex : node.startIndex + 2;
		return { node, delimiter: readDelimiter(source, end, op?.text === "<<-") };
	});
}

/** Heredoc operators in raw text, for a line the parser could not read at all (`bash <<$'EOF'`). */
function rawDelimiters(source: string): Array<{ node: undefined; delimiter: Delimiter }> {
	return [...source.matchAll(/(?<!<)<<(-?)(?!<)/g)].map((match) => ({
		node: undefined,
		delimiter: readDelimiter(source, (match.index ?? 0) + match[0].length, match[1] === "-"),
	}));
}

/**
 * The source with each heredoc delimiter written plainly, or itself when the parser read them all
 * as bash does. When the parser could not read the line at all, the operators are found in the raw
 * text; what that gives is parsed again and checked against bash's reading before it is trusted.
 */
export function plainDelimiters(tree: Tree, source: string): string {
	if (!source.includes("<<")) return source;
	let out = source;
	const found = tree.rootNode.hasError ? rawDelimiters(source) : delimiters(tree.rootNode, source);
	for (const { node, delimiter } of found.sort((a, b) => b.delimiter.start - a.delimiter.start)) {
		const plain = delimiter.quoted ? `'${delimiter.text}'` : delimiter.text;
		const start = node?.children.find((child) => child?.type === "heredoc_start");
		if (delimiter.text === "" || (start?.text === plain && start.startIndex === delimiter.start)) continue;
		if (!node && !delimiter.quoted && delimiter.start + plain.length === delimiter.end) continue;
		if (!/^[\w.@%+,:-]+$/.test(delimiter.text))
			throw unreadableCommand("parse/error", "cannot check a heredoc delimiter the guard cannot read");
		const after = out[delimiter.end] === undefined || /\s/.test(out[delimiter.end] as string) ? "" : " ";
		out = `${out.slice(0, delimiter.start)}${plain}${after}${out.slice(delimiter.end)}`;
	}
	return out;
}

/** Throws when a heredoc of `tree` ends where bash would not end it. */
export function checkHeredocs(tree: Tree, source: string): void {
	if (!source.includes("<<")) return;
	for (const { node, delimiter } of delimiters(tree.rootNode, source)) {
		const body = node.children.find((child) => child?.type === "heredoc_body")?.text ?? "";
		const end = node.children.find((child) => child?.type === "heredoc_end")?.text.trim();
		const line = (text: string) => (delimiter.strip ? text.replace(/^\t+/, "") : text);
		if (end !== delimiter.text || body.split("\n").some((text) => line(text) === delimiter.text))
			throw unreadableCommand("parse/error", `cannot check a heredoc the parser reads differently from bash (delimiter ${delimiter.text})`);
	}
}
