import { lstatSync, readFileSync, readlinkSync } from "node:fs";

/*
 * "Only root can change this": what the system hook folder, the machine's settings and a managed
 * install's command rely on. Checking the file and its folder is not enough: whoever can write any
 * folder on the way (or the folder a symlink on the way lives in, or the one it points into) can rename
 * that entry away and put their own in its place. So the path is walked component by component, the
 * way the kernel resolves it, symlinks followed, and every real entry it passes through — each folder
 * from `/` down, each symlink's target, the file itself — must be owned by root and writable by no
 * group and no other user.
 */

/** The machine's xcsh settings: read only while it is root's alone (team approvals, the OTLP collector). */
export const SYSTEM_SETTINGS_FILE = "/etc/xcsh/settings.json";

/** Bound on the symlinks one path may pass through (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Owners that count as root: uid 0 and whoever owns `/` (root itself, except inside an unprivileged user
 * namespace, where the real root shows as the overflow id; the owner of `/` can rename anything below it,
 * so trusting it adds no one).
 */
function isRoot(uid: number, rootUid: number): boolean {
	return uid === 0 || uid === rootUid;
}

function problemOf(path: string, info: { uid: number; mode: number }, rootUid: number): string | undefined {
	if (!isRoot(info.uid, rootUid)) return `${path} is not owned by root (uid ${info.uid})`;
	if ((info.mode & 0o022) !== 0) return `${path} is writable by ${(info.mode & 0o002) !== 0 ? "others" : "its group"}`;
	return undefined;
}

/**
 * Why the absolute `path` is not root's alone, or `undefined` when it is; `null` when it (or a folder on
 * the way) does not exist. Every entry the path resolves through is checked (see above); the message
 * names the first one that fails.
 */
export function rootOnlyProblem(path: string): string | null | undefined {
	if (!path.startsWith("/")) return `${path} is not an absolute path`;
	let pending = path.split("/").filter((part) => part !== "" && part !== ".");
	let current = "";
	let links = 0;
	const root = lstatSync("/");
	const top = problemOf("/", root, root.uid);
	if (top) return top;
	while (pending.length > 0) {
		const name = pending.shift() as string;
		if (name === "..") {
			current = current.slice(0, current.lastIndexOf("/"));
			continue;
		}
		const next = `${current}/${name}`;
		let info: ReturnType<typeof lstatSync> | undefined;
		try {
			// A missing entry is the common answer (no managed settings here): no exception for it.
			info = lstatSync(next, { throwIfNoEntry: false });
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOTDIR") return null;
			return `${next} cannot be checked (${code})`;
		}
		if (info === undefined) return null;
		if (info.isSymbolicLink()) {
			if (++links > MAX_LINKS) return `${path} passes through more than ${MAX_LINKS} symlinks`;
			const target = readlinkSync(next);
			// The link lives in `current`, already checked; what it points to is checked from here on.
			if (target.startsWith("/")) current = "";
			pending = [...target.split("/").filter((part) => part !== "" && part !== "."), ...pending];
			continue;
		}
		const problem = problemOf(next, info, root.uid);
		if (problem) return problem;
		current = next;
	}
	return undefined;
}

/**
 * The JSON object in the root-only file `path`, or why there is none: `problem` when the file exists but
 * is not root's alone or not a JSON object; nothing at all when it does not exist. Synchronous and small:
 * it is read on every decision that might be exported.
 */
export function readRootOnlyJson(path: string): { value?: Record<string, unknown>; problem?: string } {
	const problem = rootOnlyProblem(path);
	if (problem === null) return {};
	if (problem) return { problem };
	try {
		const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
		if (value && typeof value === "object" && !Array.isArray(value)) return { value: value as Record<string, unknown> };
		return { problem: `${path} must be a JSON object` };
	} catch (error) {
		return { problem: `${path} cannot be read (${(error as Error).message})` };
	}
}
