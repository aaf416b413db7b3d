import { existsSync } from "node:fs";
import { relative } from "pathe";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { verifyCovered } from "../discovery/covered.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { parseTeamList, pemBody, relativeFiles, TEAM_LIST_KIND, type TeamList, type TeamListEntry } from "../trust/team-list.ts";
import type { TrustStore } from "../trust/trust-store.ts";
import { cliError, EXIT_OK, printJson, writeErr, writeOut, writeOutExactly } from "./_shared.ts";

/*
 * `trust export | sign | keygen`: the team side of approvals (src/trust/team-list.ts). A list is plain
 * JSON of hashes, signed detached (`<list>.sig`, base64 of the Ed25519 signature of the list's exact
 * bytes) with Web Crypto; the private key is a PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes.
 */

/** A project hook as `trust` sees it (see src/cli/trust.ts). */
export interface TeamHook {
	path: string;
	/** A test file's approval pins the test alone (`xcsh-hooks test` approves the hook it tests on its own). */
	kind?: "hook" | "test";
	content?: (() => Uint8Array) | undefined;
}

/**
 * `trust export [--out FILE]`: the project's hooks approved here, as a team list (stdout without --out:
 * the list is the JSON, with or without --json). With --out and --json: `{list, approved, notExported}`.
 */
export async function trustExport(
	store: TrustStore,
	hooks: TeamHook[],
	cwd: string,
	out: string | undefined,
	json?: boolean | undefined,
): Promise<number> {
	const approved: TeamListEntry[] = [];
	const left: string[] = [];
	for (const { path, kind, content } of hooks) {
		try {
			const entry = content?.();
			const check = await store.check(path, entry);
			const test = kind === "test";
			const covered = check.trusted && !entry && !test ? verifyCovered(check.key, check.files) : undefined;
			if (!check.trusted || (covered && "changed" in covered)) {
				left.push(path);
				continue;
			}
			const files = !test && check.files && Object.keys(check.files).length > 0 ? { files: relativeFiles(check.files, check.key) } : {};
			approved.push({ path: relative(cwd, path), sha256: check.sha256, ...files });
		} catch (error) {
			throw cliError(errorMessage(error));
		}
	}
	const list: TeamList = { version: 1, kind: TEAM_LIST_KIND, approved };
	const text = `${JSON.stringify(list, null, 2)}\n`;
	for (const path of left) await writeErr(`not exported (not approved here, or changed since): ${path}`);
	if (out === undefined) await writeOutExactly(text);
	else {
		await writeFileAtomic(out, text);
		if (json) {
			await printJson({ list: out, approved: approved.length, notExported: left });
			return EXIT_OK;
		}
		await writeOut(
			`wrote ${out}: ${approved.length} approved hook${approved.length === 1 ? "" : "s"}; sign it with: xcsh-hooks trust sign --key KEY ${out}`,
		);
	}
	return EXIT_OK;
}

/** `trust sign --key FILE LIST`: writes `LIST.sig`, after checking that LIST is a well-formed list. */
export async function trustSign(keyFile: string | undefined, list: string | undefined, json: boolean | undefined): Promise<number> {
	if (!keyFile) throw cliError("trust sign needs --key FILE (the Ed25519 private key, PKCS#8 PEM: xcsh-hooks trust keygen)");
	if (!list) throw cliError("trust sign needs the list to sign: xcsh-hooks trust sign --key FILE approved-hooks.json");
	let bytes: Uint8Array<ArrayBuffer>;
	try {
		bytes = new Uint8Array(await Bun.file(list).arrayBuffer());
		parseTeamList(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
	} catch (error) {
		throw cliError(`${list}: ${errorMessage(error)}; not signed`);
	}
	let keyText: string;
	try {
		keyText = await Bun.file(keyFile).text();
	} catch (error) {
		throw cliError(`cannot read the key ${keyFile} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`);
	}
	const der = pemBody(keyText, "PRIVATE KEY");
	if (!der) throw cliError(`${keyFile}: expected a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)`);
	let key: CryptoKey;
	try {
		key = await crypto.subtle.importKey("pkcs8", der, { name: "Ed25519" }, false, ["sign"]);
	} catch (error) {
		throw cliError(`${keyFile}: not an Ed25519 private key (${errorMessage(error)})`);
	}
	const signature = new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, key, bytes));
	const sigFile = `${list}.sig`;
	await writeFileAtomic(sigFile, `${Buffer.from(signature).toString("base64")}\n`);
	if (json) await printJson({ list, signature: sigFile });
	else await writeOut(`signed ${list}: wrote ${sigFile}`);
	return EXIT_OK;
}

const pem = (label: string, der: ArrayBuffer) =>
	`-----BEGIN ${label}-----\n${(
		Buffer.from(der)
			.toString("base64")
			.match(/.{1,64}/g) ?? []
	).join("\n")}\n-----END ${label}-----\n`;

/** `trust keygen --out FILE`: a new Ed25519 key pair, FILE (private, 0600) and FILE.pub; never overwrites. */
export async function trustKeygen(out: string | undefined, json: boolean | undefined): Promise<number> {
	if (!out) throw cliError("trust keygen needs --out FILE (the private key is written there, the public key to FILE.pub)");
	for (const file of [out, `${out}.pub`]) if (existsSync(file)) throw cliError(`${file} already exists; not overwritten`);
	const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
	const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
	await writeFileAtomic(out, pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", pair.privateKey)), { mode: 0o600 });
	await writeFileAtomic(`${out}.pub`, pem("PUBLIC KEY", spki));
	const publicKey = Buffer.from(spki).toString("base64");
	if (json) await printJson({ privateKey: out, publicKeyFile: `${out}.pub`, publicKey });
	else
		await writeOut(
			[
				`wrote ${out} (private: keep it secret) and ${out}.pub`,
				"users trust lists signed with it by adding to ~/.xcsh/agent/settings.json (or /etc/xcsh/settings.json):",
				`  "teamApprovals": [{ "list": "/path/to/approved-hooks.json", "publicKey": "${publicKey}" }]`,
			].join("\n"),
		);
	return EXIT_OK;
}
