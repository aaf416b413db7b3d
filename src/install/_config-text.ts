import {
	appendEntry,
	applyEdit,
	inferStyle,
	type JsonNode,
	type JsonStyle,
	memberOf,
	parseTree,
	removeEntry,
	render,
	replaceValue,
} from "./_json-text.ts";

/** A style for a file `install` creates: two spaces, `\n`. */
const NEW_FILE_STYLE: JsonStyle = { eol: "\n", unit: "  ", colon: ": ", comma: ", ", multiline: true };

/**
 * An agent config's text while `install`/`uninstall` edit it: each edit replaces one span, and the tree
 * is read again after it (the files are small; one edit at a time keeps every offset right). The style
 * of additions is the original text's, read once.
 */
export class ConfigText {
	/** The current text (a BOM, when there is one, stays in front). */
	text: string;
	readonly style: JsonStyle;
	private tree: JsonNode | undefined;

	constructor(text: string) {
		this.text = text;
		const root = this.root();
		// Nothing to imitate in `{}`: additions are spread over lines, like a new file.
		this.style = root.members?.length || root.items?.length ? inferStyle(text, root) : { ...inferStyle(text, root), multiline: true };
	}

	/** The text of a new file holding `value`, ending with a line break. */
	static fresh(value: Record<string, unknown>): ConfigText {
		return new ConfigText(`${render(value, NEW_FILE_STYLE, "")}\n`);
	}

	/** The top-level value's node. */
	root(): JsonNode {
		this.tree ??= parseTree(this.text, this.text.startsWith("\uFEFF") ? 1 : 0);
		return this.tree;
	}

	/** The value of a node, parsed (for comparing; what is written back is never re-serialised from it). */
	value(node: JsonNode): unknown {
		return JSON.parse(this.text.slice(node.start, node.end));
	}

	/** The node of `root.hooks` (the last one, as JSON.parse reads a repeated key). */
	hooks(): JsonNode | undefined {
		return memberOf(this.root(), "hooks")?.value;
	}

	/** Appends a member (`key` given) or an item to `container`. */
	append(container: JsonNode, value: unknown, key?: string): void {
		this.apply(appendEntry(this.text, container, this.style, value, key));
	}

	/** Removes entry `index` (a member or an item) of `container`, with its separator. */
	remove(container: JsonNode, index: number): void {
		this.apply(removeEntry(container, index));
	}

	/** Replaces a value in place. */
	replace(node: JsonNode, value: unknown): void {
		this.apply(replaceValue(this.text, node, this.style, value));
	}

	private apply(edit: { start: number; end: number; text: string }): void {
		this.text = applyEdit(this.text, edit);
		this.tree = undefined;
	}
}
