import type { SessionEntry, SessionTreeNode } from "./types.ts";

/** Entries from the root down to `id`, following `parentId`; `[]` when `id` is unknown. */
export function branchPath(byId: ReadonlyMap<string, SessionEntry>, id: string): SessionEntry[] {
	const path: SessionEntry[] = [];
	// `seen` guards against a hand-edited file whose parentIds form a cycle.
	const seen = new Set<string>();
	for (let next: string | null = id; next !== null && !seen.has(next); ) {
		const entry = byId.get(next);
		if (!entry) break;
		seen.add(next);
		path.push(entry);
		next = entry.parentId;
	}
	return path.reverse();
}

/** The entries as a forest; an entry whose parent is missing (e.g. a skipped line) becomes a root. */
export function buildTree(entries: readonly SessionEntry[]): SessionTreeNode[] {
	const nodes = new Map<string, SessionTreeNode>();
	for (const entry of entries) nodes.set(entry.id, { entry, children: [] });
	const roots: SessionTreeNode[] = [];
	for (const node of nodes.values()) {
		const parent = node.entry.parentId === null ? undefined : nodes.get(node.entry.parentId);
		if (parent && parent !== node) parent.children.push(node);
		else roots.push(node);
	}
	return roots;
}
