import { readdir, rm, rmdir } from "node:fs/promises";
import { join } from "pathe";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { isRecord } from "../json.ts";
import { ConfigText } from "./_config-text.ts";
import { createdFor, missingDirs, recordCreated, removeEmptyDirs } from "./_install-record.ts";
import { type JsonFile, readJsonFile } from "./_json-file.ts";
import type { JsonNode } from "./_json-text.ts";
import { memberOf } from "./_json-text.ts";
import type { AgentSpec, PackageSetting, PackageSpec, Scope } from "../agents/_shared/install-spec.ts";
import type { EntryChange } from "./entries.ts";
import { XcshError } from "../errors.ts";
import { installError } from "./errors.ts";
import { readInstalledFile } from "./files.ts";

/*
 * The `package` install layout (OpenClaw): a plugin folder of ours (its files, each holding our marker:
 * a file of the user's at one of the names is never overwritten nor removed), and its
 * registration in the agent's JSON config, made the way the agent's own commands make it and edited
 * as text (see _config-text.ts): every byte that is not our value stays as it was, and an uninstall
 * after an install leaves the file byte for byte as it was. A config the install created is deleted
 * again once nothing but what it added was left in it.
 */

/** What a `package` install or uninstall changes. */
export interface PackagePlan {
	folder: string;
	config: string;
	/** The files to write (name → text) or, for an uninstall, to remove (name → ""). */
	files: Record<string, string>;
	changes: EntryChange[];
	/** The config's new text; absent when it does not change or is deleted. */
	content?: string;
	removeConfig?: boolean;
	/** What the config file was before (for the install record). */
	before: JsonFile;
}

const deepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A value nested under `keys`: `{a: {b: value}}`. */
const nest = (keys: string[], value: unknown): unknown => keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);

function packageOf(spec: AgentSpec): PackageSpec {
	if (!spec.package) throw new XcshError("INTERNAL", `install: ${spec.id} has the package layout but no package`);
	return spec.package;
}

/** The object at `path` under the root, creating nothing; `undefined` when missing; throws when one is not an object. */
function walk(doc: ConfigText, path: string[], file: string): JsonNode | undefined {
	let node = doc.root();
	for (const [i, key] of path.entries()) {
		const member = memberOf(node, key);
		if (!member) return undefined;
		if (member.value.kind !== "object" && !(i === path.length - 1 && member.value.kind === "array"))
			throw installError(
				"shape",
				file,
				`${file}: ${path.slice(0, i + 1).join(".")} is not ${i === path.length - 1 ? "a list" : "an object"}; not changed`,
			);
		node = member.value;
	}
	return node;
}

/** Sets one setting in `doc`; the change, or undefined when it already held. */
function ensure(doc: ConfigText, setting: PackageSetting, file: string): EntryChange | undefined {
	const { path } = setting;
	const name = path.join(".");
	// The deepest object on the path that exists; what is missing below it is added as one nested value.
	for (let depth = path.length - 1; depth >= 0; depth--) {
		const parent = walk(doc, path.slice(0, depth), file);
		if (!parent) continue;
		const rest = path.slice(depth);
		if (rest.length === 1) {
			const member = memberOf(parent, rest[0] as string);
			if ("value" in setting) {
				if (member && deepEqual(doc.value(member.value), setting.value)) return undefined;
				if (member) doc.replace(member.value, setting.value);
				else doc.append(parent, setting.value, rest[0]);
				return { action: member ? "update" : "add", event: name, command: JSON.stringify(setting.value) };
			}
			if (member) {
				if (member.value.kind !== "array") throw installError("shape", file, `${file}: ${name} is not a list; not changed`);
				if ((member.value.items ?? []).some((item) => doc.value(item) === setting.item)) return undefined;
				doc.append(member.value, setting.item);
				return { action: "add", event: name, command: setting.item };
			}
		}
		const value = "value" in setting ? setting.value : [setting.item];
		doc.append(parent, nest(rest.slice(1), value), rest[0]);
		return { action: "add", event: name, command: "value" in setting ? JSON.stringify(setting.value) : setting.item };
	}
	throw new XcshError("INTERNAL", "unreachable: the root is an object");
}

/** Removes one setting install made (only as it set it); then the objects on its path it left empty. */
function unset(doc: ConfigText, setting: PackageSetting, file: string): EntryChange | undefined {
	const { path } = setting;
	let parent: JsonNode | undefined;
	try {
		parent = walk(doc, path.slice(0, -1), file);
	} catch {
		return undefined; // not the shape install writes: nothing of ours there
	}
	const key = path[path.length - 1] as string;
	const member = parent && memberOf(parent, key);
	if (!parent || !member) return undefined;
	let change: EntryChange;
	if ("value" in setting) {
		if (!deepEqual(doc.value(member.value), setting.value)) return undefined;
		doc.remove(parent, (parent.members ?? []).lastIndexOf(member));
		change = { action: "remove", event: path.join("."), command: JSON.stringify(setting.value) };
	} else {
		const at = (member.value.items ?? []).findIndex((item) => doc.value(item) === setting.item);
		if (member.value.kind !== "array" || at < 0) return undefined;
		doc.remove(member.value, at);
		change = { action: "remove", event: path.join("."), command: setting.item };
	}
	// The containers on the path left empty go too, innermost first (not the top level).
	for (let depth = path.length; depth >= 1; depth--) {
		const holder = walk(doc, path.slice(0, depth - 1), file);
		const child = holder && memberOf(holder, path[depth - 1] as string);
		if (!holder || !child) continue;
		const empty =
			child.value.kind === "object" ? child.value.members?.length === 0 : child.value.kind === "array" && child.value.items?.length === 0;
		if (!empty) break;
		doc.remove(holder, (holder.members ?? []).lastIndexOf(child));
	}
	return change;
}

function configText(config: JsonFile): ConfigText {
	const blank = config.text === undefined || /^\uFEFF?[ \t\r\n]*$/.test(config.text);
	return blank ? ConfigText.fresh({}) : new ConfigText(config.text as string);
}

/** Whether the file at `path` is one install wrote (it holds the marker), missing, or the user's. */
async function fileState(path: string, marker: string): Promise<"ours" | "missing" | "theirs"> {
	const text = await readInstalledFile(path);
	if (text === undefined) return "missing";
	return text.includes(marker) ? "ours" : "theirs";
}

/** What installing the package at `scope` changes; refuses a folder holding files of the user's at our names. */
export async function planPackageInstall(spec: AgentSpec, scope: Scope, dir: string, home: string, command: string): Promise<PackagePlan> {
	const pkg = packageOf(spec);
	const folder = pkg.dir(scope, dir);
	const config = pkg.config(home);
	const wanted = pkg.files(command);
	const files: Record<string, string> = {};
	const changes: EntryChange[] = [];
	for (const [name, text] of Object.entries(wanted)) {
		const path = join(folder, name);
		const existing = await readInstalledFile(path);
		if (existing === text) continue;
		if (existing !== undefined && !existing.includes(pkg.marker))
			throw installError("shape", path, `${path}: a file that is not ours; move it away first; nothing changed`);
		files[name] = text;
		changes.push({ action: existing === undefined ? "add" : "update", event: path, command });
	}
	const before = await readJsonFile(config);
	const doc = configText(before);
	for (const setting of pkg.settings(scope, folder)) {
		const change = ensure(doc, setting, config);
		if (change) changes.push(change);
	}
	const plan: PackagePlan = { folder, config, files, changes, before };
	if (doc.text !== (before.text ?? "")) plan.content = doc.text;
	return plan;
}

/** Writes a planned install: the files, then the config (recording a config or folders it created). */
export async function applyPackageInstall(plan: PackagePlan, home: string): Promise<void> {
	for (const [name, text] of Object.entries(plan.files)) await write(join(plan.folder, name), text);
	if (plan.content === undefined) return;
	const created = plan.before.exists ? undefined : { file: true, dirs: await missingDirs(plan.config) };
	await write(plan.config, plan.content);
	if (created) await recordCreated(home, plan.config, created).catch(() => {});
}

/** What uninstalling the package at `scope` changes: our files, our settings. */
export async function planPackageUninstall(spec: AgentSpec, scope: Scope, dir: string, home: string): Promise<PackagePlan> {
	const pkg = packageOf(spec);
	const folder = pkg.dir(scope, dir);
	const config = pkg.config(home);
	const files: Record<string, string> = {};
	const changes: EntryChange[] = [];
	for (const name of Object.keys(pkg.files(""))) {
		const path = join(folder, name);
		if ((await fileState(path, pkg.marker).catch(() => "theirs" as const)) !== "ours") continue;
		files[name] = "";
		changes.push({ action: "remove", event: path, command: folder });
	}
	const before = await readJsonFile(config);
	const plan: PackagePlan = { folder, config, files, changes, before };
	if (before.text === undefined) return plan;
	const doc = configText(before);
	for (const setting of pkg.settings(scope, folder)) {
		const change = unset(doc, setting, config);
		if (change) changes.push(change);
	}
	if (doc.text === before.text) return plan;
	const left = JSON.parse(doc.text.replace(/^\uFEFF/, "")) as unknown;
	const created = await createdFor(home, config);
	if (isRecord(left) && Object.keys(left).length === 0 && created?.file) plan.removeConfig = true;
	else plan.content = doc.text;
	return plan;
}

/** Carries out a planned uninstall. */
export async function applyPackageUninstall(plan: PackagePlan, home: string): Promise<void> {
	for (const name of Object.keys(plan.files)) await rm(join(plan.folder, name), { force: true });
	if (Object.keys(plan.files).length > 0)
		try {
			if ((await readdir(plan.folder)).length === 0) await rmdir(plan.folder);
		} catch {}
	if (plan.removeConfig) {
		const created = await createdFor(home, plan.config);
		await rm(plan.config, { force: true });
		await removeEmptyDirs(plan.config, created?.dirs ?? []);
		await recordCreated(home, plan.config, undefined).catch(() => {});
	} else if (plan.content !== undefined) await write(plan.config, plan.content);
}

async function write(path: string, text: string): Promise<void> {
	try {
		await writeFileAtomic(path, text);
	} catch (error) {
		throw installError("io", path, (error as Error).message);
	}
}
