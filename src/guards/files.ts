/**
 * The `files` guard: the read, write and edit tools of every agent, as hooks see them (`read
 * {path}`, `write {path, content}`, `edit {path, oldText, newText}`). Reading credentials (`.env`
 * files, `~/.ssh`, `~/.aws/credentials`, key files) is refused, and so is writing outside the
 * project (temp dirs aside) or into a `.git` folder; `allowPaths` relaxes both. Paths are judged as
 * written (`~` and `..` resolved), without touching the disk: a symlink is not followed.
 */
import { homedir, tmpdir } from "node:os";
import type { HookContext, ToolCallEvent, ToolCallEventResult } from "../hooks/types.ts";
import { resolveFrom } from "./words.ts";

/** Options of {@link createFileGuard}. */
export interface FileGuardOptions {
	/** Paths (relative to the project, absolute, or `~/…`) that may be read and written whatever they look like. */
	allowPaths?: readonly string[];
	/** Rule ids to switch off: `files/read-credentials`, `files/write-outside`, `files/write-git`. */
	disable?: readonly string[];
	/** The tool names of each kind; default the built-in `read`, `write` and `edit`. */
	tools?: { read?: readonly string[]; write?: readonly string[]; edit?: readonly string[] };
}

/** What the file guard decided about one tool call. */
export interface FileDecision {
	block: boolean;
	/** One line: why it is blocked. */
	reason?: string;
	/** `files/read-credentials`, `files/write-outside`, `files/write-git` or `input/*`. */
	rule?: string;
	/** The path as judged (absolute), when it could be read. */
	path?: string;
}

/** A guard for file tools: decides about one access, and gives a `tool_call` handler that applies it. */
export interface FileGuard {
	/** Whether `tool` (`read`, `write` or `edit`) on `path`, from `cwd` (the project), must be blocked. Never throws. */
	decide(tool: "read" | "write" | "edit", path: unknown, options?: { cwd?: string }): FileDecision;
	/** A `tool_call` handler: `pi.on("tool_call", files.handler)`. */
	handler(event: ToolCallEvent, ctx: HookContext): Promise<ToolCallEventResult | undefined>;
}

/** Templates of `.env` files, which hold no secrets by convention. */
const ENV_TEMPLATE = /\.(?:example|sample|template|dist|defaults|schema)$/;
/** Names of key and credential files, wherever they lie. */
const KEY_FILE =
	/^(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?|.*\.(?:pem|key|p12|pfx|jks|keystore|ppk|kdbx|gpg)|\.netrc|_netrc|\.git-credentials|\.pgpass|\.my\.cnf|\.npmrc|\.pypirc|\.vault-token|\.htpasswd|credentials(?:\.json|\.db)?|client_secret.*\.json|service-account.*\.json|application_default_credentials\.json|shadow|gshadow)$/i;
/** Folders under home whose contents are credentials. */
const HOME_SECRETS =
	/^(?:\.ssh|\.gnupg|\.password-store|\.aws|\.azure|\.config\/gcloud|\.config\/gh|\.config\/op|\.docker|\.kube|\.terraform\.d|\.local\/share\/keyrings|Library\/Keychains)(?:\/|$)/;
/** What may be read under those folders: public keys, known hosts, ssh and aws settings. */
const HOME_PUBLIC =
	/^(?:\.ssh\/(?:.*\.pub|known_hosts(?:\.old)?|config|authorized_keys)|\.aws\/config|\.kube\/cache\/.*|\.docker\/(?:daemon|features)\.json)$/;

const MASK: Record<string, string> = { $: "\u0001", "`": "\u0002", "~": "\u0003" };
const UNMASK: Record<string, string> = { "\u0001": "$", "\u0002": "`", "\u0003": "~" };

const TEMP_ROOTS = [...new Set(["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", tmpdir().replace(/\/+$/, "")])];
const inside = (path: string, root: string) => path === root || path.startsWith(`${root === "/" ? "" : root}/`);

/** Why reading `path` reads a credential, or `undefined`. */
function credential(path: string, home: string): string | undefined {
	const name = path.slice(path.lastIndexOf("/") + 1);
	if (/^\.env(?:\..+)?$|\.env$/i.test(name) && !ENV_TEMPLATE.test(name)) return `${name} holds environment secrets`;
	if (inside(path, home) && path !== home) {
		const below = path.slice(home.length + 1);
		if (HOME_SECRETS.test(below) && !HOME_PUBLIC.test(below)) return `~/${below} holds credentials`;
	}
	if (KEY_FILE.test(name) && !/\.pub$/.test(name)) return `${name} looks like a key or credential file`;
	return undefined;
}

/** A guard for the read, write and edit tools (see the module comment for what it refuses). */
export function createFileGuard(options: FileGuardOptions = {}): FileGuard {
	const disabled = new Set(options.disable ?? []);
	const home = (process.env.HOME || homedir()).replace(/\/+$/, "") || "/";
	const kinds = {
		read: options.tools?.read ?? ["read"],
		write: options.tools?.write ?? ["write"],
		edit: options.tools?.edit ?? ["edit"],
	};

	const decide = (tool: "read" | "write" | "edit", raw: unknown, at: { cwd?: string } = {}): FileDecision => {
		const project = (at.cwd ?? process.cwd()).replace(/(?<=.)\/+$/, "");
		if (typeof raw !== "string" || raw === "") return { block: true, reason: `the ${tool} call has no path`, rule: "input/no-path" };
		if (raw.includes("\0")) return { block: true, reason: "the path holds a NUL character", rule: "input/nul" };
		// Tools take paths literally: a leading `~` is expanded (most agents do), `$X` is a name.
		const masked = raw.replace(/[$`]|(?<!^)~/g, (c) => MASK[c] ?? c);
		const literal = resolveFrom(project, masked, home)?.replace(/[\u0001-\u0003]/g, (c) => UNMASK[c] ?? c);
		if (literal === undefined) return { block: true, reason: `cannot tell where ${raw} is`, rule: "input/path" };
		const allowed = (options.allowPaths ?? [])
			.map((p) => resolveFrom(project, p, home))
			.some((root) => root !== undefined && inside(literal, root));
		if (allowed) return { block: false, path: literal };
		if ((tool === "read" || tool === "edit") && !disabled.has("files/read-credentials")) {
			const why = credential(literal, home);
			if (why) return { block: true, reason: `${tool} of a credential: ${why}`, rule: "files/read-credentials", path: literal };
		}
		if (tool === "read") return { block: false, path: literal };
		if (!disabled.has("files/write-git") && /(?:^|\/)\.git(?:\/|$)/.test(literal))
			return { block: true, reason: `${tool} into .git (${raw}): git's own files, hooks included`, rule: "files/write-git", path: literal };
		// A temp dir, unless it is (or holds, or lies in) home or the project, wherever those are.
		const related = (root: string) => inside(literal, root) || inside(root, literal);
		const temp = TEMP_ROOTS.some((root) => literal.startsWith(`${root}/`)) && !related(home) && !related(project);
		if (!disabled.has("files/write-outside") && !inside(literal, project) && !temp)
			return { block: true, reason: `${tool} outside the project (${literal})`, rule: "files/write-outside", path: literal };
		return { block: false, path: literal };
	};

	const safeDecide: FileGuard["decide"] = (tool, path, at) => {
		try {
			return decide(tool, path, at);
		} catch (error) {
			return {
				block: true,
				reason: `the file guard failed (${error instanceof Error ? error.message : String(error)})`,
				rule: "guard/failure",
			};
		}
	};

	return {
		decide: safeDecide,
		// A plain function, not a method: `pi.on("tool_call", files.handler)` calls it without `this`.
		async handler(event, ctx) {
			const tool = (["read", "write", "edit"] as const).find((kind) => kinds[kind].includes(event.toolName));
			if (!tool) return undefined;
			const decision = safeDecide(tool, event.input.path, { cwd: ctx.cwd });
			return decision.block ? { block: true, reason: `${decision.reason} [${decision.rule}]` } : undefined;
		},
	};
}

/** What the files guard protects and leaves alone (data for the docs). */
export const filesPack = {
	name: "files",
	description: "read/write/edit tools: no reading credentials, no writing outside the project or into .git",
	protects: [
		"reading credentials: .env files (not .env.example/.sample/.template), ~/.ssh (not *.pub, known_hosts, config), ~/.aws (not config), ~/.gnupg, ~/.kube, ~/.docker, gcloud/gh/op/azure folders, key files (*.pem, *.key, id_rsa, *.p12…), .netrc, .npmrc, .pypirc, .pgpass",
		"writing or editing outside the project (temp dirs aside), and into any .git folder (hooks run code)",
	],
	leavesAlone: ["reading anything else, writing inside the project; allowPaths opens a path to both"],
} as const;
