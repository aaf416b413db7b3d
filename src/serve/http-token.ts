import { XcshError } from "../errors.ts";
import { timingSafeEqual } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "pathe";
import { userAgentDir } from "../paths.ts";

/** The file holding the bearer token of `serve --http`: `~/.xcsh/agent/http-token`. */
export function httpTokenFile(): string {
	return join(userAgentDir(), "http-token");
}

/** A new random token: 32 bytes, base64url (43 characters). */
function newToken(): string {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/**
 * The token in `file`, created (mode 0600, random) when the file is missing. Created with
 * `O_EXCL`, so two servers starting at once agree on one token. Refused: an empty file, and a file
 * that others may read (a token anyone on the machine can read guards nothing).
 */
export function ensureHttpToken(file = httpTokenFile()): { token: string; created: boolean } {
	mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
	let created = false;
	try {
		const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
		try {
			writeSync(fd, `${newToken()}\n`);
		} finally {
			closeSync(fd);
		}
		created = true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST")
			throw new XcshError("WRITE_FAILED", `cannot create the token file ${file}: ${(error as Error).message}`);
	}
	return { token: readHttpToken(file), created };
}

/** Reads and checks the token file (see {@link ensureHttpToken}). */
export function readHttpToken(file = httpTokenFile()): string {
	const info = statSync(file);
	if (!info.isFile())
		throw new XcshError("UNSAFE_PERMISSIONS", `${file} is not a regular file; delete it and start serve --http again to create a token`);
	if (process.platform !== "win32" && (info.mode & 0o077) !== 0)
		throw new XcshError(
			"UNSAFE_PERMISSIONS",
			`${file} may be read by other users (mode ${(info.mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
		);
	const fd = openSync(file, constants.O_RDONLY);
	let token: string;
	try {
		if (!fstatSync(fd).isFile()) throw new XcshError("NOT_A_REGULAR_FILE", `${file} is not a regular file`);
		token = readFileSync(fd, "utf8").trim();
	} finally {
		closeSync(fd);
	}
	if (!token) throw new XcshError("INVALID_INPUT", `${file} is empty; delete it and start serve --http again to create a token`);
	return token;
}

/** Whether an `Authorization` header carries exactly `Bearer <token>`, compared in constant time. */
export function authorized(header: string | null, token: string): boolean {
	if (header === null) return false;
	const expected = Buffer.from(`Bearer ${token}`);
	const given = Buffer.from(header.trim());
	return given.length === expected.length && timingSafeEqual(given, expected);
}
