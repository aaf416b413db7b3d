import { isXcshError, XcshError, type XcshErrorCode } from "../errors.ts";
import { realpathSync } from "node:fs";
import { join, resolve } from "pathe";
import { readRegularFile } from "../fs/regular-file.ts";
import { userAgentDir } from "../paths.ts";

/** One approval: the content hash the user approved, and when. */
export interface TrustEntry {
	/** SHA-256 of the file's content, lowercase hex. */
	sha256: string;
	/** ISO 8601 time of approval. */
	approvedAt: string;
	/**
	 * The other files the approval covers, by real path → SHA-256: a module's import graph, the files
	 * beside a shell hook (src/discovery/covered.ts). Absent when there are none.
	 */
	files?: Record<string, string>;
}

/** The on-disk format of `trust.json`. */
export interface TrustFile {
	version: 1;
	/** Keyed by {@link trustKey}: the absolute path with symlinks resolved. */
	approved: Record<string, TrustEntry>;
}

/** Outcome of {@link TrustStore.check}. */
export interface TrustCheck {
	trusted: boolean;
	/** `unknown`: never approved; `changed`: approved, but the content differs now. */
	reason?: "unknown" | "changed";
	/** Hash of the file's current content. */
	sha256: string;
	/** The bytes that were hashed: what must run if the file is trusted (never read the file twice). */
	bytes: Uint8Array;
	/** The approval's key: the path with symlinks resolved when it was checked ({@link trustKey}). */
	key: string;
	/**
	 * Trusted: the other files the approval covers (real path → SHA-256, {@link TrustEntry.files}), for
	 * the caller to verify before the hook runs (src/discovery/covered.ts); absent when there are none.
	 */
	files?: Readonly<Record<string, string>> | undefined;
}

/**
 * The codes of the {@link XcshError}s trust throws (the message names the file at fault). `HOOK_UNPINNABLE`:
 * an approval could not cover what the hook runs (an agent entry that `cd`s, expands variables…).
 */
export type TrustErrorCode = Extract<
	XcshErrorCode,
	"TRUST_FILE_CORRUPT" | "TRUST_FILE_UNREADABLE" | "HOOK_UNREADABLE" | "HOOK_NOT_A_FILE" | "HOOK_UNPINNABLE"
>;

/** The default trust file, `~/.xcsh/agent/trust.json` (read from `HOME` at call time). */
export function defaultTrustFile(): string {
	return join(userAgentDir(), "trust.json");
}

/**
 * Reads a hook file once, refusing anything that is not a regular file (src/fs/regular-file.ts): a
 * directory would be imported as its `index.ts`, a FIFO or device would block or change between reads.
 */
export function readHookFile(path: string): Uint8Array {
	try {
		return readRegularFile(path);
	} catch (error) {
		if (!isXcshError(error, "NOT_A_REGULAR_FILE", "FILE_UNREADABLE")) throw error;
		if (error.code === "NOT_A_REGULAR_FILE")
			throw new XcshError("HOOK_NOT_A_FILE", `${path} is not a regular file (${error.detail}); a hook must be a file`);
		throw new XcshError("HOOK_UNREADABLE", `Cannot read ${path} to hash it (${error.detail})`);
	}
}

/** SHA-256 (hex) of bytes. */
export function sha256Hex(bytes: Uint8Array): string {
	return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** SHA-256 (hex) of a file's content; a path that is not a regular file is a {@link XcshError} (a trust code). */
export async function hashFile(path: string): Promise<string> {
	return sha256Hex(readHookFile(path));
}

/**
 * The key of an approval: the absolute path with symlinks resolved (`/link/proj/hook.ts` and
 * `/real/proj/hook.ts` are one approval, whichever way the project is reached). For an agent entry,
 * `<settings file>#<key>`, the file part is resolved. A path that cannot be resolved is a {@link XcshError} (a trust code).
 */
export function trustKey(path: string): string {
	const absolute = resolve(path);
	const hash = absolute.indexOf("#", absolute.lastIndexOf("/"));
	const file = hash < 0 ? absolute : absolute.slice(0, hash);
	let real: string;
	try {
		real = realpathSync(file);
	} catch (error) {
		// A hook whose path cannot be resolved right now (a dangling or swapped link) cannot be looked up:
		// reported as unreadable, which fails closed — never as "not approved yet", which would skip it.
		const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
		throw new XcshError("HOOK_UNREADABLE", `Cannot resolve ${file} to check its approval (${code})`);
	}
	return hash < 0 ? real : real + absolute.slice(hash);
}

/** Pending writes per trust file, shared by every store of this process. */
const writeQueues = new Map<string, Promise<void>>();

/**
 * Approvals of hook files by content hash. Only the hash counts: editing an approved file makes it
 * untrusted (`changed`) until approved again. Every write re-reads the file, changes one entry and
 * replaces the file atomically (temp file + fsync + rename), so entries written earlier by other
 * processes are kept. Writes to one file are serialized within this process; across processes there
 * is no lock, so two writes at the same instant can still race (the last rename wins). A trust file
 * that cannot be parsed is an error naming it and is never overwritten.
 */
export class TrustStore {
	/** Absolute path of the trust file. */
	readonly file: string;
	/** The trust file as first read by {@link check}; dropped by every write of this store. */
	#snapshot: Promise<TrustFile> | undefined;

	constructor(file: string = defaultTrustFile()) {
		this.file = resolve(file);
	}

	/** SHA-256 (hex) of a file's content. */
	hashFile(path: string): Promise<string> {
		return hashFile(path);
	}

	/**
	 * Whether the file's current content is the approved one. `content` is given for what is not a file of
	 * its own (an agent's hook entry, keyed `<settings file>#<key>`): those bytes are checked instead.
	 */
	async check(path: string, content?: Uint8Array): Promise<TrustCheck> {
		const key = trustKey(path);
		const bytes = content ?? readHookFile(resolve(path));
		const sha256 = sha256Hex(bytes);
		// One read of the trust file serves every check of a load (a CLI start checks each project hook).
		this.#snapshot ??= this.#read();
		const { approved } = await this.#snapshot;
		// Approvals written before keys were resolved through symlinks are still found under their plain path.
		const entry = approved[key] ?? approved[resolve(path)];
		if (!entry) return { trusted: false, reason: "unknown", sha256, bytes, key };
		if (entry.sha256 !== sha256) return { trusted: false, reason: "changed", sha256, bytes, key };
		return { trusted: true, sha256, bytes, key, files: entry.files };
	}

	/**
	 * Approves the file's current content (or `content`, as in {@link check}), with `files`, the hashes
	 * of the other files the approval covers (real path → SHA-256: a module's import graph, the files
	 * beside a shell hook; `approveHook` in src/discovery/covered.ts computes them). Without them the
	 * approval covers the file alone, and a hook that runs other project files fails closed. Returns the
	 * stored entry.
	 */
	async approve(path: string, content?: Uint8Array, files?: Readonly<Record<string, string>>): Promise<TrustEntry> {
		const key = trustKey(path);
		const sha256 = content ? sha256Hex(content) : await hashFile(resolve(path));
		const covers = files && Object.keys(files).length > 0 ? { files: { ...files } } : {};
		const entry: TrustEntry = { sha256, approvedAt: new Date().toISOString(), ...covers };
		await this.#update((approved) => {
			approved[key] = entry;
		});
		return entry;
	}

	/** Removes an approval; `false` when the path was not approved. */
	async revoke(path: string): Promise<boolean> {
		// A file already deleted can still have its approval revoked, by its plain path.
		const keys = [resolve(path)];
		try {
			keys.push(trustKey(path));
		} catch {}
		let removed = false;
		await this.#update((approved) => {
			for (const key of keys) {
				if (key in approved) removed = true;
				delete approved[key];
			}
		});
		return removed;
	}

	/** Every approval, sorted by path. */
	async list(): Promise<Array<TrustEntry & { path: string }>> {
		const { approved } = await this.#read();
		return Object.keys(approved)
			.sort()
			.map((path) => ({ path, ...(approved[path] as TrustEntry) }));
	}

	/** Read-modify-write, one at a time per file in this process; nothing is written when the file is corrupt. */
	#update(change: (approved: Record<string, TrustEntry>) => void): Promise<void> {
		this.#snapshot = undefined;
		const run = (writeQueues.get(this.file) ?? Promise.resolve()).then(async () => {
			const data = await this.#read();
			change(data.approved);
			await writeAtomic(this.file, `${JSON.stringify(data, null, "\t")}\n`);
		});
		const settled = run.catch(() => {});
		writeQueues.set(this.file, settled);
		settled.then(() => {
			if (writeQueues.get(this.file) === settled) writeQueues.delete(this.file);
		});
		return run;
	}

	async #read(): Promise<TrustFile> {
		let text: string;
		try {
			text = await Bun.file(this.file).text();
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOENT") return { version: 1, approved: {} };
			throw new XcshError("TRUST_FILE_UNREADABLE", `Cannot read trust file ${this.file} (${code ?? error})`);
		}
		return parseTrustFile(text, this.file);
	}
}

/** Creates a {@link TrustStore} on `file` (default `~/.xcsh/agent/trust.json`). */
export function createTrustStore(file?: string): TrustStore {
	return new TrustStore(file);
}

function parseTrustFile(text: string, file: string): TrustFile {
	const corrupt = (why: string) =>
		new XcshError("TRUST_FILE_CORRUPT", `Trust file ${file} is corrupt: ${why}. Fix or delete it (approvals in it will be lost).`);
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		throw corrupt(`invalid JSON (${(error as Error).message})`);
	}
	const { version, approved } = (data ?? {}) as Partial<TrustFile>;
	if (version !== 1) throw corrupt(`expected "version": 1, got ${JSON.stringify(version)}`);
	if (!approved || typeof approved !== "object" || Array.isArray(approved)) throw corrupt(`"approved" must be an object`);
	for (const [path, entry] of Object.entries(approved)) {
		if (typeof entry?.sha256 !== "string" || typeof entry?.approvedAt !== "string")
			throw corrupt(`entry ${JSON.stringify(path)} needs string "sha256" and "approvedAt"`);
		const files: unknown = entry.files;
		if (
			files !== undefined &&
			(files === null || typeof files !== "object" || Array.isArray(files) || Object.values(files).some((h) => typeof h !== "string"))
		)
			throw corrupt(`entry ${JSON.stringify(path)}: "files" must map paths to SHA-256 strings`);
	}
	return { version: 1, approved };
}

/**
 * Replaces the trust file through the project's one atomic writer (temp file, fsync, rename, directory
 * fsync), mode 0600. Loaded here, on the write path only: checking trust happens on every CLI start-up,
 * writing rarely.
 */
async function writeAtomic(file: string, text: string): Promise<void> {
	const { writeFileAtomic } = await import("../fs/atomic-write.ts");
	await writeFileAtomic(file, text, { mode: 0o600 });
}
