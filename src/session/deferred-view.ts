import type { ReadonlySessionManager } from "./types.ts";

/**
 * A read-only session view that asks `target` for the real one on every call: a host opens its session
 * file only when a hook first reads it, and a pooled server answers with whichever request is running.
 */
export class DeferredSessionView implements ReadonlySessionManager {
	constructor(private readonly target: () => ReadonlySessionManager) {}
	getCwd = () => this.target().getCwd();
	getSessionDir = () => this.target().getSessionDir();
	getSessionId = () => this.target().getSessionId();
	getSessionFile = () => this.target().getSessionFile();
	getHeader = () => this.target().getHeader();
	getEntries = () => this.target().getEntries();
	getEntry = (id: string) => this.target().getEntry(id);
	getLeafId = () => this.target().getLeafId();
	getLeafEntry = () => this.target().getLeafEntry();
	getBranch = (fromId?: string) => this.target().getBranch(fromId);
	getLabel = (id: string) => this.target().getLabel(id);
	getTree = () => this.target().getTree();
}
