import { deepFreeze } from "../freeze.ts";
import type { SessionManager } from "../session/session-manager.ts";
import type { ReadonlySessionManager, SessionEntry, SessionHeader, SessionMessageEntry, SessionTreeNode } from "../session/types.ts";
import type { TranscriptMessage } from "../agents/_shared/jsonl.ts";

const time = (iso: string | undefined) => (iso === undefined ? Number.NaN : Date.parse(iso));

/**
 * `ctx.sessionManager` in a bridge: the agent's transcript (read on first use) and the entries hooks
 * appended to their session file, as one read-only session in time order. The two histories are
 * written by different programs, so they are shown as one linear chain: each entry's `parentId` in
 * this view is the entry before it (transcript entries have ids `transcript-<n>`). Header, id, file
 * and labels are the hooks' session file's, whose id is the agent's session id.
 */
export class BridgeSessionView implements ReadonlySessionManager {
	#transcript: SessionMessageEntry[] | undefined;
	#cache: { count: number; last: string | undefined; entries: SessionEntry[]; byId: Map<string, SessionEntry> } | undefined;

	constructor(
		private readonly open: () => SessionManager,
		private readonly readTranscript: () => TranscriptMessage[],
	) {}

	#transcriptEntries(): SessionMessageEntry[] {
		if (this.#transcript) return this.#transcript;
		const created = this.open().getHeader().timestamp;
		let previous = created;
		this.#transcript = this.readTranscript().map(({ message, timestamp }, index) => {
			// A message without a time sorts with the one before it.
			previous = timestamp ?? previous;
			return { type: "message", id: `transcript-${index + 1}`, parentId: null, timestamp: previous, message };
		});
		return this.#transcript;
	}

	#merged() {
		const own = this.open().getEntries();
		const last = own.at(-1)?.id;
		if (this.#cache && this.#cache.count === own.length && this.#cache.last === last) return this.#cache;
		const transcript = this.#transcriptEntries();
		const all: SessionEntry[] = [...transcript, ...own];
		// Stable: ties (and entries without a parseable time) keep transcript-then-file order.
		const order = all.map((entry, index) => ({ entry, index, at: time(entry.timestamp) }));
		order.sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) || a.at === b.at ? a.index - b.index : a.at - b.at));
		const entries: SessionEntry[] = [];
		const byId = new Map<string, SessionEntry>();
		for (const { entry } of order) {
			const linked = deepFreeze({ ...entry, parentId: entries.at(-1)?.id ?? null } as SessionEntry);
			entries.push(linked);
			byId.set(linked.id, linked);
		}
		this.#cache = { count: own.length, last, entries, byId };
		return this.#cache;
	}

	getCwd(): string {
		return this.open().getCwd();
	}
	getSessionDir(): string {
		return this.open().getSessionDir();
	}
	getSessionId(): string {
		return this.open().getSessionId();
	}
	getSessionFile(): string | undefined {
		return this.open().getSessionFile();
	}
	getHeader(): SessionHeader {
		return this.open().getHeader();
	}
	getEntries(): SessionEntry[] {
		return [...this.#merged().entries];
	}
	getEntry(id: string): SessionEntry | undefined {
		return this.#merged().byId.get(id);
	}
	getLeafId(): string | null {
		return this.#merged().entries.at(-1)?.id ?? null;
	}
	getLeafEntry(): SessionEntry | undefined {
		return this.#merged().entries.at(-1);
	}
	getBranch(fromId?: string): SessionEntry[] {
		const { entries } = this.#merged();
		const at = fromId === undefined ? entries.length - 1 : entries.findIndex((entry) => entry.id === fromId);
		return at < 0 ? [] : entries.slice(0, at + 1);
	}
	getLabel(id: string): string | undefined {
		return this.open().getLabel(id);
	}
	getTree(): SessionTreeNode[] {
		const roots: SessionTreeNode[] = [];
		let parent: SessionTreeNode | undefined;
		for (const entry of this.#merged().entries) {
			const node: SessionTreeNode = { entry, children: [] };
			if (parent) parent.children.push(node);
			else roots.push(node);
			parent = node;
		}
		return roots;
	}
}
