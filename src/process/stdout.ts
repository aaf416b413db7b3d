/*
 * In the modes a program reads (`emit`, `serve`, `bridge`), stdout belongs to the protocol: a hook's
 * `console.log`, `process.stdout.write`, `Bun.write(Bun.stdout, …)` or a child process inheriting fd 1
 * must not glue text onto an answer. The class of hole lives at the file descriptor, so it is closed
 * there: fd 1 is duplicated for the protocol and fd 1 itself is pointed at stderr (dup/dup2 from libc
 * through bun:ffi, ≈0.2 ms). Where libc cannot be reached (Windows), the JavaScript ways to stdout are
 * redirected instead and fd 1 stays the protocol's.
 */

let claimed: number | undefined;

/** The descriptor the protocol writes to once {@link claimStdout} ran; `undefined` before. */
export function protocolFd(): number | undefined {
	return claimed;
}

const LIBC =
	process.platform === "darwin"
		? ["libSystem.B.dylib"]
		: ["libc.so.6", "libc.so", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`];

function claimByDup(): number | undefined {
	if (process.platform === "win32") return undefined;
	const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
	for (const name of LIBC) {
		let lib: ReturnType<typeof openLibc> | undefined;
		try {
			lib = openLibc(dlopen, FFIType, name);
		} catch {
			continue;
		}
		const fd = lib.symbols.dup(1);
		if (fd < 0) return undefined;
		if (lib.symbols.dup2(2, 1) < 0) return undefined;
		return fd;
	}
	return undefined;
}

function openLibc(dlopen: typeof import("bun:ffi").dlopen, types: typeof import("bun:ffi").FFIType, name: string) {
	return dlopen(name, {
		dup: { args: [types.i32], returns: types.i32 },
		dup2: { args: [types.i32, types.i32], returns: types.i32 },
	});
}

/** Sends every JavaScript route to stdout to stderr instead (the fallback without libc). */
function redirectJavaScriptStdout(): void {
	const toStderr = console.error.bind(console);
	for (const name of ["log", "info", "debug", "dir", "dirxml", "table"] as const)
		(console as unknown as Record<string, unknown>)[name] = toStderr;
	Object.defineProperty(process, "stdout", { configurable: true, get: () => process.stderr });
	(Bun as unknown as { stdout: unknown }).stdout = Bun.stderr;
}

/**
 * Makes stdout the protocol's alone: from now on only `writeOut` (src/cli/_shared.ts) reaches it, and
 * everything else written to stdout lands on stderr. Idempotent; returns the protocol descriptor.
 */
export function claimStdout(): number {
	if (claimed !== undefined) return claimed;
	let fd: number | undefined;
	try {
		fd = claimByDup();
	} catch {
		fd = undefined;
	}
	if (fd === undefined) {
		redirectJavaScriptStdout();
		fd = 1;
	}
	claimed = fd;
	return fd;
}
