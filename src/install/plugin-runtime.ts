import { readFile } from "node:fs/promises";
import { join, resolve } from "pathe";
import { version as PACKAGE_VERSION } from "../../package.json" with { type: "json" };
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { installError } from "./errors.ts";

/*
 * How an agent that loads plugins in-process (OpenCode, Kilo Code) reaches the library. The
 * executable embeds a bundle of the library plus the plugin runtime (built by `bun run build`, target
 * Bun, with the shell parser's WebAssembly beside it); `install` writes it to
 * `~/.xcsh/agent/runtime/<version>/` and the plugin file imports it by absolute path. Versioned: a
 * plugin file written by an older executable keeps working with its own copy, and an upgrade writes a
 * new folder. A file is rewritten only when its bytes differ. Run from source, the plugin imports this
 * checkout's `src/inprocess/entry.ts` directly and nothing is written.
 */

/** The file of the runtime bundle the plugin file imports. */
export const RUNTIME_ENTRY = "agent-runtime.js";

/** The folder the executable writes its runtime to, for a home. */
export function runtimeDir(home: string): string {
	return join(home, ".xcsh", "agent", "runtime", PACKAGE_VERSION);
}

/** The embedded bundle: file name → base64 bytes (only inside the executable; see scripts/build.ts). */
async function embeddedFiles(): Promise<Record<string, string>> {
	const mod = (await import("xcsh-hooks-agent-runtime")) as { files: Record<string, string> };
	return mod.files;
}

/**
 * The absolute path the plugin file imports, writing the runtime there first unless `dryRun`
 * (from the executable only). Resolves the path and the files it wrote.
 */
export async function materializeRuntime(home: string, dryRun: boolean): Promise<{ path: string; written: string[] }> {
	if (!Bun.isStandaloneExecutable) return { path: resolve(import.meta.dir, "..", "inprocess", "entry.ts"), written: [] };
	const dir = runtimeDir(home);
	const written: string[] = [];
	const files = await embeddedFiles();
	if (!files[RUNTIME_ENTRY])
		throw installError("io", dir, "this executable was built without the plugin runtime; rebuild it with bun run build");
	for (const [name, base64] of Object.entries(files)) {
		const path = join(dir, name);
		const bytes = Buffer.from(base64, "base64");
		const existing = await readFile(path).catch(() => undefined);
		if (existing?.equals(bytes)) continue;
		written.push(path);
		if (dryRun) continue;
		try {
			await writeFileAtomic(path, bytes);
		} catch (error) {
			throw installError("io", path, (error as Error).message);
		}
	}
	return { path: join(dir, RUNTIME_ENTRY), written };
}
