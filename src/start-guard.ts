import { onEndingSignal } from "./process/signals.ts";
import { mark } from "./profile.ts";
// node:fs is required where needed: the compiled executable never needs it here, and this is every start-up's first module.
const fs = () => require("node:fs") as typeof import("node:fs");
import { join, resolve } from "pathe";

/*
 * Bun reads the working directory's `bunfig.toml` (its `preload`, `define`, `[env]`) and `.env*`
 * files before any program starts. Inside a cloned repository that is the repository's code and
 * settings running before trust is decided — a `.env` setting `HOME` would even turn a repository
 * file into a "user" hook. The compiled executable is built with both autoloads off; `src/cli.ts`
 * starts Bun with `--no-env-file --config=/dev/null` in its shebang (the package `bin`). Started
 * any other way (`bun src/cli.ts`) in a directory holding such files, this module — imported first —
 * runs the CLI again in a clean Bun with the environment the process was started with (Linux:
 * /proc/self/environ), so nothing Bun loaded from the project reaches trust or the hooks. A preload
 * has by then already run in this first process: that cannot be undone, so it is said on stderr.
 * Where the original environment cannot be read, the CLI refuses to go on.
 */

const PROTECTED_FLAGS = ["--no-env-file"];

function startedClean(): boolean {
	if (Bun.isStandaloneExecutable) return true;
	const argv = process.execArgv;
	return (
		PROTECTED_FLAGS.every((flag) => argv.includes(flag)) &&
		argv.some((arg) => arg.startsWith("--config=") || arg === "-c" || arg === "--config")
	);
}

/** The files of `dir` that Bun reads at start-up. */
function filesBunRead(dir: string): string[] {
	let names: string[];
	try {
		names = fs().readdirSync(dir);
	} catch {
		return [];
	}
	return names.filter((name) => name === "bunfig.toml" || name === ".env" || name.startsWith(".env.")).sort();
}

/** The environment this process was started with, before Bun merged any `.env` into it. */
function startEnvironment(): Record<string, string> | undefined {
	try {
		const raw = fs().readFileSync("/proc/self/environ", "utf8");
		const env: Record<string, string> = {};
		for (const entry of raw.split("\0")) {
			const eq = entry.indexOf("=");
			if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
		}
		return env;
	} catch {
		return undefined;
	}
}

function samePath(a: string, b: string): boolean {
	try {
		return fs().realpathSync(a) === fs().realpathSync(b);
	} catch {
		return false;
	}
}

async function restartClean(): Promise<void> {
	const cwd = process.cwd();
	if (samePath(cwd, resolve(import.meta.dir, ".."))) return; // this package's own folder: its own files
	const found = filesBunRead(cwd);
	if (found.length === 0) return;
	const write = (text: string) => Bun.write(Bun.stderr, `${text}\n`);
	const listed = found.map((name) => join(cwd, name)).join(", ");
	const env = startEnvironment();
	if (!env) {
		await write(
			`xcsh-hooks: refusing to run: Bun loaded ${listed} before xcsh-hooks started, and the original environment cannot be recovered here. Start it as the executable, through its package bin, or as: bun --no-env-file --config=/dev/null ${resolve(import.meta.dir, "cli.ts")} …`,
		);
		process.exit(1);
	}
	if (found.includes("bunfig.toml"))
		await write(
			`xcsh-hooks: warning: Bun read ${join(cwd, "bunfig.toml")} before xcsh-hooks started (its preload may already have run); start xcsh-hooks as the executable or through its package bin to keep project code out before trust. Continuing in a clean process.`,
		);
	const child = Bun.spawn(
		[process.execPath, ...PROTECTED_FLAGS, "--config=/dev/null", resolve(import.meta.dir, "cli.ts"), ...process.argv.slice(2)],
		{
			cwd,
			env,
			stdio: ["inherit", "inherit", "inherit"],
		},
	);
	// Every signal that would end this process goes to the CLI instead, which answers it (src/process/signals.ts).
	onEndingSignal((signal) => child.kill(signal));
	process.exit(await child.exited);
}

mark("entry");
if (!startedClean()) await restartClean();
