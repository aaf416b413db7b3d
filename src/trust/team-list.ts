import { statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "pathe";
import { isXcshError, XcshError } from "../errors.ts";
import { readRegularFile } from "../fs/regular-file.ts";

/*
 * Approvals a team shares (docs/contract.md#teams): an organisation publishes a list of approved hook hashes, signed
 * with its Ed25519 key; a machine's user settings (or the root-owned /etc/xcsh/settings.json), never a
 * project's, name the list and the public key they trust. A project hook whose exact bytes are on a
 * validly signed list runs without a local `trust approve`. Anything wrong with a list — unreadable, a
 * bad signature, an unusable key, a malformed list — is a warning, and that list approves nothing.
 *
 * Cost: lists are read only when a project hook is not approved locally, and one Ed25519 verification
 * through Web Crypto costs ≈0.1 ms here, so nothing is cached across processes.
 */

/** The settings entry naming one team list (`teamApprovals` in user or managed settings). */
export interface TeamApprovalSource {
	/** Path of the list (relative paths are resolved against the settings file's root). */
	list: string;
	/** The trusted Ed25519 public key: base64 of its SPKI DER (as `trust keygen` prints it), or a PEM text. */
	publicKey: string;
	/** Path of the detached signature (base64); default `<list>.sig`. */
	signature?: string | undefined;
}

/** One approved hook on a list: its SHA-256 and those of the files it runs (paths relative to its folder). */
export interface TeamListEntry {
	sha256: string;
	/** Where it was exported from (for people reading the list; not checked). */
	path?: string;
	/** The files the approval covers besides the hook (its imports, the files beside it), relative to its folder. */
	files?: Record<string, string>;
}

/** The list format: `{"version": 1, "kind": "xcsh-hooks.approved-hooks", "approved": [...]}`. */
export interface TeamList {
	version: 1;
	kind: typeof TEAM_LIST_KIND;
	approved: TeamListEntry[];
}

export const TEAM_LIST_KIND = "xcsh-hooks.approved-hooks";

/** Upper bound of a list's size: a list is hashes, not content. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;

/** An entry of a verified list, with the list it is on (its path): who approved it. */
export interface VerifiedTeamEntry extends TeamListEntry {
	list: string;
}

/** The verified entries of every list, by hook SHA-256, and a warning per list that approves nothing. */
export interface TeamApprovals {
	bySha: Map<string, VerifiedTeamEntry[]>;
	warnings: string[];
}

/** `files` of an entry as absolute paths beside the hook at real path `hookPath`. */
export function absoluteFiles(entry: TeamListEntry, hookPath: string): Record<string, string> {
	const dir = dirname(hookPath);
	return Object.fromEntries(Object.entries(entry.files ?? {}).map(([file, sha]) => [resolve(dir, file), sha]));
}

/** `files` (absolute → SHA-256) of an approval as paths relative to the hook's folder, for a list. */
export function relativeFiles(files: Readonly<Record<string, string>>, hookPath: string): Record<string, string> {
	const dir = dirname(hookPath);
	return Object.fromEntries(Object.entries(files).map(([file, sha]) => [relative(dir, file), sha]));
}

/** Decodes base64 (standard or url-safe), or `undefined` when it is not base64. */
function base64(text: string): Uint8Array<ArrayBuffer> | undefined {
	const clean = text.replace(/\s+/g, "");
	if (!/^[A-Za-z0-9+/_-]+=*$/.test(clean)) return undefined;
	try {
		return Uint8Array.from(atob(clean.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
	} catch {
		return undefined;
	}
}

/** The DER body of a PEM block with `label`, or `undefined`. */
export function pemBody(text: string, label: string): Uint8Array<ArrayBuffer> | undefined {
	const match = new RegExp(`-----BEGIN ${label}-----([^-]+)-----END ${label}-----`).exec(text);
	return match ? base64(match[1] as string) : undefined;
}

/** Imports a public key given as PEM, base64 SPKI DER (44 bytes) or base64 raw (32 bytes). */
export async function importPublicKey(text: string): Promise<CryptoKey> {
	const der = text.includes("-----BEGIN") ? pemBody(text, "PUBLIC KEY") : base64(text);
	if (!der) throw new XcshError("TEAM_LIST_INVALID", "the public key is neither a PEM PUBLIC KEY nor base64");
	const format = der.byteLength === 32 ? "raw" : "spki";
	try {
		return await crypto.subtle.importKey(format, der, { name: "Ed25519" }, false, ["verify"]);
	} catch (error) {
		throw new XcshError("TEAM_LIST_INVALID", `the public key is not an Ed25519 key (${(error as Error).message})`);
	}
}

function read(path: string, what: string): Uint8Array {
	try {
		const info = statSync(path, { throwIfNoEntry: false });
		if (info && info.size > MAX_LIST_BYTES) throw new XcshError("TEAM_LIST_INVALID", `larger than ${MAX_LIST_BYTES} bytes`);
		return readRegularFile(path);
	} catch (error) {
		const detail = isXcshError(error) && error.detail !== undefined ? error.detail : (error as Error).message;
		throw new XcshError("FILE_UNREADABLE", `cannot read the ${what} ${path} (${detail})`);
	}
}

/** Parses and checks a list's text; throws naming what is wrong. */
export function parseTeamList(text: string): TeamList {
	const value = JSON.parse(text) as Partial<TeamList>;
	if (!value || typeof value !== "object" || value.version !== 1 || value.kind !== TEAM_LIST_KIND)
		throw new XcshError("TEAM_LIST_INVALID", `not an approved-hooks list (expected "version": 1 and "kind": "${TEAM_LIST_KIND}")`);
	if (!Array.isArray(value.approved)) throw new XcshError("TEAM_LIST_INVALID", `"approved" must be an array`);
	const hex = (v: unknown) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v);
	for (const [i, entry] of value.approved.entries()) {
		if (!hex(entry?.sha256)) throw new XcshError("TEAM_LIST_INVALID", `approved[${i}].sha256 must be a lowercase SHA-256 hex string`);
		const files = entry.files;
		if (files !== undefined && (typeof files !== "object" || files === null || !Object.values(files).every(hex)))
			throw new XcshError("TEAM_LIST_INVALID", `approved[${i}].files must map relative paths to SHA-256 hex strings`);
		if (files && Object.keys(files).some((f) => isAbsolute(f)))
			throw new XcshError("TEAM_LIST_INVALID", `approved[${i}].files must hold paths relative to the hook's folder`);
	}
	return value as TeamList;
}

/** Reads, verifies and parses one list; throws naming what is wrong. */
export async function verifyTeamList(source: TeamApprovalSource): Promise<TeamList> {
	const bytes = read(source.list, "list");
	const sigText = new TextDecoder().decode(read(source.signature ?? `${source.list}.sig`, "signature"));
	const signature = base64(sigText.trim());
	if (signature?.byteLength !== 64) throw new XcshError("TEAM_LIST_INVALID", "the signature file does not hold a base64 Ed25519 signature");
	const key = await importPublicKey(source.publicKey);
	if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, signature as Uint8Array<ArrayBuffer>, bytes as Uint8Array<ArrayBuffer>)))
		throw new XcshError("TEAM_LIST_INVALID", "the signature does not match the list and the trusted key");
	try {
		return parseTeamList(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
	} catch (error) {
		throw new XcshError("TEAM_LIST_INVALID", `the list is malformed: ${(error as Error).message}`);
	}
}

/** Every list `sources` names, verified; a list with any problem is a warning and approves nothing. */
export async function loadTeamApprovals(sources: readonly TeamApprovalSource[]): Promise<TeamApprovals> {
	const bySha = new Map<string, VerifiedTeamEntry[]>();
	const warnings: string[] = [];
	await Promise.all(
		sources.map(async (source) => {
			try {
				const list = await verifyTeamList(source);
				for (const entry of list.approved) bySha.set(entry.sha256, [...(bySha.get(entry.sha256) ?? []), { ...entry, list: source.list }]);
			} catch (error) {
				warnings.push(`team approvals ${source.list}: ${(error as Error).message}; it approves nothing`);
			}
		}),
	);
	return { bySha, warnings };
}

/** The entries approving content `bytes` (already hashed as `sha256`), or none. */
export function teamEntries(approvals: TeamApprovals, sha256: string): VerifiedTeamEntry[] {
	return approvals.bySha.get(sha256) ?? [];
}
