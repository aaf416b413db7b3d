import { XcshError } from "../errors.ts";
import { rm } from "node:fs/promises";
import { join } from "pathe";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { type AgentSpec, pluginMarker } from "../agents/_shared/install-spec.ts";
import type { EntryChange } from "./entries.ts";
import { installError } from "./errors.ts";
import { readInstalledFile } from "./files.ts";

/*
 * The `plugin` install layout (OpenCode, Kilo Code): one plugin file in the agent's plugin folder. It
 * is ours when it is exactly what install writes (see {@link isOurs}); any other file of the user's at our name is
 * never overwritten (the install is refused, naming it) nor removed.
 */

/** The planned write or removal of the plugin file. */
export interface PluginChange extends EntryChange {
	path: string;
	/** The new text (absent for a removal). */
	text?: string;
}

/** The runtime paths our plugin file imports: a version's bundle under `~/.xcsh/agent/runtime/`, or a checkout's entry. */
const RUNTIME_SHAPE = /^\/(?:.*\/)?(?:\.xcsh\/agent\/runtime\/[\w.+-]+\/agent-runtime\.js|src\/inprocess\/entry\.ts)$/;

/**
 * Whether `text` is a plugin file install wrote: exactly the text it writes, importing a runtime path
 * of ours. The marker alone is not enough: a cloned repository can carry a file with our name and
 * marker that imports its own code; `status` must not call that installed, nor `uninstall` delete it.
 */
function isOurs(text: string, spec: AgentSpec): boolean {
	if (!text.split("\n").includes(pluginMarker(spec.id))) return false;
	const from = /^export \{ \w+ \} from ("[^\n]*");$/m.exec(text)?.[1];
	let runtime: unknown;
	try {
		runtime = from === undefined ? undefined : JSON.parse(from);
	} catch {
		return false;
	}
	return typeof runtime === "string" && RUNTIME_SHAPE.test(runtime) && pluginOf(spec).text(runtime) === text;
}

/** Why a file at our plugin's name is not counted as ours (undefined when absent or ours). */
export async function foreignPlugin(dir: string, spec: AgentSpec): Promise<string | undefined> {
	const path = join(dir, pluginOf(spec).fileName);
	const text = await readInstalledFile(path).catch(() => undefined);
	if (text === undefined || isOurs(text, spec)) return undefined;
	return `${path}: holds a ${spec.label} plugin that is not ours (not the file install writes); left in place`;
}

function pluginOf(spec: AgentSpec): NonNullable<AgentSpec["plugin"]> {
	if (!spec.plugin) throw new XcshError("INTERNAL", `install: ${spec.id} has the plugin layout but no plugin()`);
	return spec.plugin;
}

/** What installing the plugin file into `dir` changes (nothing when it is already as wanted); refuses a file of the user's. */
export async function planPlugin(dir: string, spec: AgentSpec, runtime: string): Promise<PluginChange[]> {
	const plugin = pluginOf(spec);
	const path = join(dir, plugin.fileName);
	const text = plugin.text(runtime);
	const existing = await readInstalledFile(path);
	if (existing === text) return [];
	if (existing !== undefined && !isOurs(existing, spec))
		throw installError("shape", path, `${path}: holds a ${spec.label} plugin that is not ours; move it away first; nothing changed`);
	return [{ action: existing === undefined ? "add" : "update", event: plugin.fileName, command: runtime, path, text }];
}

/** Our plugin file in `dir`, as a removal (none when absent or not ours). */
export async function findOurPlugin(dir: string, spec: AgentSpec): Promise<PluginChange[]> {
	const path = join(dir, pluginOf(spec).fileName);
	const text = await readInstalledFile(path).catch(() => undefined);
	return text !== undefined && isOurs(text, spec) ? [{ action: "remove", event: pluginOf(spec).fileName, command: path, path }] : [];
}

/** Writes or removes the planned file. */
export async function applyPlugin(changes: PluginChange[]): Promise<void> {
	for (const change of changes) {
		try {
			if (change.text === undefined) await rm(change.path);
			else await writeFileAtomic(change.path, change.text);
		} catch (error) {
			throw installError("io", change.path, (error as Error).message);
		}
	}
}
