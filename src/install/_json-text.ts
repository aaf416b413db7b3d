/*
 * A small editor of JSON text: `install` and `uninstall` change a user's config by inserting and
 * removing spans of its text, so every byte they do not need to change stays as it was (numbers such
 * as `1.0` or `12345678901234567890123`, key order, compact or indented layout, CRLF, a BOM). The text
 * is known to be valid JSON (JSON.parse checked it first); the tree only records where things are.
 */

/** One JSON value in the text: `[start, end)`, and for containers where each member or item sits. */
export interface JsonNode {
	kind: "object" | "array" | "scalar";
	start: number;
	end: number;
	/** Objects: members in text order (a repeated key is there twice; the last one counts, as in JSON.parse). */
	members?: JsonMember[];
	/** Arrays: items in text order. */
	items?: JsonNode[];
}

/** One `"key": value` of an object; `start` is the key's opening quote. */
export interface JsonMember {
	key: string;
	start: number;
	value: JsonNode;
}

/** How the text writes what `install` adds, inferred from the text itself. */
export interface JsonStyle {
	/** `\r\n` when the file uses it. */
	eol: string;
	/** One level of indentation: a tab or spaces. */
	unit: string;
	/** What follows a key up to its value, e.g. `": "` or `":"`. */
	colon: string;
	/** What separates items written on one line, e.g. `", "` or `","`. */
	comma: string;
	/** Whether the file spreads over lines (a one-line file gets one-line additions). */
	multiline: boolean;
}

const WS = new Set([" ", "\t", "\n", "\r"]);

/** Parses the value starting at or after `from` (whitespace skipped); throws on text that is not JSON. */
export function parseTree(text: string, from = 0): JsonNode {
	let i = from;
	const skip = () => {
		while (i < text.length && WS.has(text[i] as string)) i++;
	};
	const string = (): number => {
		const start = i++;
		while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
		if (i >= text.length) throw new SyntaxError(`unterminated string at ${start}`);
		i++;
		return start;
	};
	const value = (): JsonNode => {
		skip();
		const start = i;
		const c = text[i];
		if (c === "{") {
			i++;
			const members: JsonMember[] = [];
			skip();
			if (text[i] === "}") return { kind: "object", start, end: ++i, members };
			for (;;) {
				skip();
				if (text[i] !== '"') throw new SyntaxError(`expected a key at ${i}`);
				const keyStart = string();
				const key = JSON.parse(text.slice(keyStart, i)) as string;
				skip();
				if (text[i++] !== ":") throw new SyntaxError(`expected ":" at ${i - 1}`);
				members.push({ key, start: keyStart, value: value() });
				skip();
				if (text[i] === ",") i++;
				else if (text[i] === "}") return { kind: "object", start, end: ++i, members };
				else throw new SyntaxError(`expected "," or "}" at ${i}`);
			}
		}
		if (c === "[") {
			i++;
			const items: JsonNode[] = [];
			skip();
			if (text[i] === "]") return { kind: "array", start, end: ++i, items };
			for (;;) {
				items.push(value());
				skip();
				if (text[i] === ",") i++;
				else if (text[i] === "]") return { kind: "array", start, end: ++i, items };
				else throw new SyntaxError(`expected "," or "]" at ${i}`);
			}
		}
		if (c === '"') {
			string();
			return { kind: "scalar", start, end: i };
		}
		while (i < text.length && !WS.has(text[i] as string) && !",]}".includes(text[i] as string)) i++;
		if (i === start) throw new SyntaxError(`expected a value at ${start}`);
		return { kind: "scalar", start, end: i };
	};
	return value();
}

/** The member `key` of an object node (the last one, as JSON.parse reads a repeated key). */
export function memberOf(node: JsonNode, key: string): JsonMember | undefined {
	return node.members?.findLast((m) => m.key === key);
}

/** Where an entry (member or item) of a container starts and ends. */
const entrySpan = (entry: JsonMember | JsonNode) => ({ start: entry.start, end: "value" in entry ? entry.value.end : entry.end });

/** The style of `text`, whose top-level value is `root`. */
export function inferStyle(text: string, root: JsonNode): JsonStyle {
	const indented = /^([ \t]+)\S/m.exec(text.slice(root.start, root.end))?.[1];
	const firstMember = findMember(root);
	let colon = ": ";
	if (firstMember) {
		const between = text.slice(firstMember.start, firstMember.value.start);
		const close = between.lastIndexOf('"');
		const found = between.slice(close + 1);
		if (!/[\r\n]/.test(found)) colon = found;
	}
	const sameLine = findSeparator(text, root);
	return {
		eol: text.includes("\r\n") ? "\r\n" : "\n",
		unit: indented?.startsWith("\t") ? "\t" : " ".repeat(Math.min(indented?.length ?? 2, 8)),
		colon,
		comma: sameLine ?? (colon === ":" ? "," : ", "),
		multiline: /\n/.test(text.slice(root.start, root.end)),
	};
}

const children = (node: JsonNode) => [...(node.members?.map((m) => m.value) ?? []), ...(node.items ?? [])];

function findMember(node: JsonNode): JsonMember | undefined {
	if (node.members?.length) return node.members[0];
	for (const child of children(node)) {
		const found = findMember(child);
		if (found) return found;
	}
	return undefined;
}

/** The first separator between two entries on one line (`", "`, `","`), depth first. */
function findSeparator(text: string, node: JsonNode): string | undefined {
	const entries = node.kind === "object" ? (node.members ?? []) : (node.items ?? []);
	for (let i = 1; i < entries.length; i++) {
		const between = text.slice(entrySpan(entries[i - 1] as JsonNode | JsonMember).end, (entries[i] as JsonNode | JsonMember).start);
		if (!/[\r\n]/.test(between)) return between;
	}
	for (const child of children(node)) {
		const found = findSeparator(text, child);
		if (found) return found;
	}
	return undefined;
}

/**
 * `value` as JSON text in `style`: spread over lines indented from `indent` (the indentation of the
 * line it starts on), or on one line when `indent` is undefined.
 */
export function render(value: unknown, style: JsonStyle, indent: string | undefined): string {
	if (Array.isArray(value)) {
		if (value.length === 0) return "[]";
		const items = value.map((v) => render(v, style, indent === undefined ? undefined : indent + style.unit));
		return indent === undefined ? `[${items.join(style.comma)}]` : wrap("[", items, "]", style, indent);
	}
	if (value !== null && typeof value === "object") {
		const entries = Object.entries(value).filter(([, v]) => v !== undefined);
		if (entries.length === 0) return "{}";
		const inner = indent === undefined ? undefined : indent + style.unit;
		const members = entries.map(([k, v]) => `${JSON.stringify(k)}${style.colon}${render(v, style, inner)}`);
		return indent === undefined ? `{${members.join(style.comma)}}` : wrap("{", members, "}", style, indent);
	}
	return JSON.stringify(value);
}

function wrap(open: string, parts: string[], close: string, style: JsonStyle, indent: string): string {
	const inner = indent + style.unit;
	return `${open}${style.eol}${inner}${parts.join(`,${style.eol}${inner}`)}${style.eol}${indent}${close}`;
}

/** The leading whitespace of the line `at` is on. */
function lineIndent(text: string, at: number): string {
	const start = text.lastIndexOf("\n", at - 1) + 1;
	return /^[ \t]*/.exec(text.slice(start, at))?.[0] ?? "";
}

/** One replacement of `[start, end)` by `text`. */
export interface TextEdit {
	start: number;
	end: number;
	text: string;
}

/** Applies one edit. */
export function applyEdit(text: string, edit: TextEdit): string {
	return text.slice(0, edit.start) + edit.text + text.slice(edit.end);
}

/**
 * Appends an item (`key` undefined) or a member to a container, after its last entry: the separator
 * repeats the whitespace in front of that entry, so the new one lines up with it (and removing it again
 * with {@link removeEntry} gives back the text as it was). An empty container is spread over lines in
 * a multi-line file.
 */
export function appendEntry(text: string, container: JsonNode, style: JsonStyle, value: unknown, key?: string): TextEdit {
	const entries = container.kind === "object" ? (container.members ?? []) : (container.items ?? []);
	const head = key === undefined ? "" : `${JSON.stringify(key)}${style.colon}`;
	const last = entries.at(-1);
	if (last) {
		const { start, end } = entrySpan(last);
		let ws = start;
		while (ws > container.start + 1 && WS.has(text[ws - 1] as string)) ws--;
		const gap = text.slice(ws, start);
		const nl = gap.lastIndexOf("\n");
		const body = render(value, style, nl < 0 ? undefined : gap.slice(nl + 1));
		return { start: end, end, text: `,${gap}${head}${body}` };
	}
	const inner = { start: container.start + 1, end: container.end - 1 };
	if (!style.multiline) return { ...inner, text: head + render(value, style, undefined) };
	const base = lineIndent(text, container.start);
	const indent = base + style.unit;
	return { ...inner, text: `${style.eol}${indent}${head}${render(value, style, indent)}${style.eol}${base}` };
}

/**
 * Removes entry `index` of a container with its separator: the one in front of it (or, for the first,
 * the one after it). The last entry leaves the container empty (`[]`, `{}`).
 */
export function removeEntry(container: JsonNode, index: number): TextEdit {
	const entries = container.kind === "object" ? (container.members ?? []) : (container.items ?? []);
	const entry = entries[index];
	if (!entry) throw new RangeError(`no entry ${index}`);
	if (entries.length === 1) return { start: container.start + 1, end: container.end - 1, text: "" };
	if (index > 0) return { start: entrySpan(entries[index - 1] as JsonNode | JsonMember).end, end: entrySpan(entry).end, text: "" };
	return { start: entry.start, end: (entries[1] as JsonNode | JsonMember).start, text: "" };
}

/** Replaces a value in place, written over lines when the old one was, else on one line. */
export function replaceValue(text: string, node: JsonNode, style: JsonStyle, value: unknown): TextEdit {
	const spread = /\n/.test(text.slice(node.start, node.end));
	return { start: node.start, end: node.end, text: render(value, style, spread ? lineIndent(text, node.start) : undefined) };
}
