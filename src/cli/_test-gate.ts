import { MODULE_LOADERS } from "../hooks/module-files.ts";
import { TEST_GATE_SYMBOL } from "../testing/_gate.ts";

/** What the test-run gate admits: which folders it guards, and the approved content of their files. */
export interface TestGateConfig {
	/** Guarded folders (real paths): the project and the folders of its project-level hooks. */
	roots: string[];
	/** Folders inside those that are not the project's (real paths): the user directory, the served library. */
	exempt: string[];
	/** SHA-256 that each guarded file must have to load, by real path: approvals, and `--hook` files as they are now. */
	approved: Record<string, string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The plugin filter: a path inside a root and not inside an exempt folder. */
export function gateFilter(config: Pick<TestGateConfig, "roots" | "exempt">): string {
	const alternatives = (dirs: string[]) => dirs.map((dir) => escapeRegExp(dir.replace(/\/+$/, ""))).join("|");
	const exempt = config.exempt.length > 0 ? `(?!(?:${alternatives(config.exempt)})/)` : "";
	return `^${exempt}(?:${alternatives(config.roots)})/`;
}

/**
 * Source of the first lines of the `bun test` preload of `xcsh-hooks test`: a runtime plugin that
 * stands between Bun's module loader and every guarded file — the test files themselves, and whatever
 * they import statically, dynamically, through `require` or `createHookHarness`. Each such file is
 * read once (a regular file only, opened non-blocking), hashed, and loaded from exactly those bytes,
 * decoded as UTF-8, when the hash is the approved one; otherwise the load throws, naming the file and
 * the `trust approve` command, so nothing unapproved is ever evaluated. Only file types whose bytes the
 * gate can hand over itself load (JS/TS modules, JSON, TOML): anything else is refused, never read by Bun
 * behind the gate's back. The same check is offered to `createHookHarness` (as `globalThis[Symbol.for(
 * TEST_GATE_SYMBOL)]`), so a shell hook it loads runs a private copy of approved bytes, or is refused. The code is plain JavaScript with its data inlined, because it runs inside
 * `bun test` (in the compiled executable, as Bun), where none of this program's modules can be imported.
 */
export function gatePreloadSource(config: TestGateConfig): string {
	const data = {
		filter: gateFilter(config),
		approved: config.approved,
		modules: MODULE_LOADERS,
	};
	return `// xcsh-hooks test: nothing of the project loads unless its bytes are approved.
{
	const gate = ${JSON.stringify(data)};
	const fs = require("node:fs");
	const quote = (arg) => (/^[\\w@%+=:,./~-]+$/.test(arg) ? arg : "'" + arg.replaceAll("'", "'\\\\''") + "'");
	const readRegular = (path) => {
		const fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
		try {
			const info = fs.fstatSync(fd);
			if (!info.isFile()) throw new Error("not a regular file");
			const bytes = new Uint8Array(info.size);
			let read = 0;
			for (let n = 1; read < bytes.length && n > 0; read += n) n = fs.readSync(fd, bytes, read, bytes.length - read, read);
			return bytes.subarray(0, read);
		} finally {
			fs.closeSync(fd);
		}
	};
	const objectOf = (value) => ({
		exports: value !== null && typeof value === "object" && !Array.isArray(value) ? { ...value, default: value } : { default: value },
		loader: "object",
	});
	const filter = new RegExp(gate.filter);
	// The approved bytes of a guarded file (real path), or a thrown refusal naming the approve command.
	const admit = (path, what) => {
		const refuse = (why) => {
			throw new Error("xcsh-hooks test: refused to " + what + " " + path + ": " + why);
		};
		let bytes;
		try {
			bytes = readRegular(path);
		} catch (error) {
			refuse("cannot read it (" + (error.code ?? error.message) + ")");
		}
		const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
		const wanted = Object.hasOwn(gate.approved, path) ? gate.approved[path] : undefined;
		if (wanted !== sha256)
			refuse((wanted ? "changed since it was approved" : "not approved") + " (xcsh-hooks trust approve " + quote(path) + ")");
		return { bytes, sha256, realPath: path, refuse };
	};
	// For the harness: a shell hook runs from approved bytes too (no import gate sees a process start).
	globalThis[Symbol.for("${TEST_GATE_SYMBOL}")] = {
		approvedSource(path) {
			let real;
			try {
				real = fs.realpathSync(path);
			} catch (error) {
				throw new Error("xcsh-hooks test: refused to run " + path + ": cannot resolve it (" + (error.code ?? error.message) + ")");
			}
			if (!filter.test(real)) return undefined;
			const { bytes, sha256 } = admit(real, "run");
			return { bytes, sha256, realPath: real };
		},
	};
	Bun.plugin({
		name: "xcsh-hooks-test-gate",
		setup(build) {
			build.onLoad({ filter }, (args) => {
				const slash = args.path.lastIndexOf("/");
				const query = args.path.indexOf("?", slash);
				const path = query < 0 ? args.path : args.path.slice(0, query);
				const { bytes, refuse } = admit(path, "load");
				const text = new TextDecoder().decode(bytes);
				const dot = path.lastIndexOf(".");
				const ext = dot > slash ? path.slice(dot) : "";
				if (Object.hasOwn(gate.modules, ext) && !path.endsWith(".d.ts")) return { contents: text, loader: gate.modules[ext] };
				if (ext === ".json") return objectOf(JSON.parse(text));
				if (ext === ".toml") return objectOf(Bun.TOML.parse(text));
				refuse("xcsh-hooks test loads only JS/TS modules, JSON and TOML files of the project");
			});
		},
	});
}
`;
}
