import type { ConfigText } from "./_config-text.ts";
import { memberOf } from "./_json-text.ts";
import { installError } from "./errors.ts";

/*
 * A setting a managed install pins to `true` in a JSON managed file, one level down (Gemini CLI's
 * `hooksConfig.enabled`: its system settings override the user's and the project's, so the pin keeps
 * either from turning hooks off). Edited as text like the entries; what was there before is returned
 * for the record (src/install/managed.ts), so uninstall puts back exactly that.
 */

/** What pinning changed: the value before (absent: there was none), and whether the parent object was added too. */
export interface Pinned {
	before: { value?: unknown };
	parentCreated: boolean;
}

/** The path of a dotted key, `hooksConfig.enabled` → `["hooksConfig", "enabled"]`. */
const partsOf = (key: string): [string, string] => {
	const at = key.indexOf(".");
	return [key.slice(0, at), key.slice(at + 1)];
};

/** Sets `<parent>.<name>` (the dotted `key`) to `true`; `undefined` when it already is. Refuses a parent that is not an object. */
export function pinTrue(doc: ConfigText, key: string, file: string): Pinned | undefined {
	const [parent, name] = partsOf(key);
	const holder = memberOf(doc.root(), parent);
	if (!holder) {
		doc.append(doc.root(), { [name]: true }, parent);
		return { before: {}, parentCreated: true };
	}
	if (holder.value.kind !== "object")
		throw installError("shape", file, `${file}: ${parent} is not an object, so ${key} cannot be set to true; not changed`);
	const member = memberOf(holder.value, name);
	if (!member) {
		doc.append(holder.value, true, name);
		return { before: {}, parentCreated: false };
	}
	const value = doc.value(member.value);
	if (value === true) return undefined;
	doc.replace(member.value, true);
	return { before: { value }, parentCreated: false };
}

/**
 * Undoes {@link pinTrue} while the value is still `true`: the value before put back, or the key removed
 * (and the parent object, when the pin added it and nothing else is in it). `false` when nothing changed.
 */
export function unpin(doc: ConfigText, key: string, set: { value?: unknown; parentCreated?: boolean }): boolean {
	const [parent, name] = partsOf(key);
	const holder = memberOf(doc.root(), parent);
	if (holder?.value.kind !== "object") return false;
	const member = memberOf(holder.value, name);
	if (!member || doc.value(member.value) !== true) return false;
	if ("value" in set) {
		doc.replace(member.value, set.value);
		return true;
	}
	doc.remove(holder.value, holder.value.members?.indexOf(member) ?? -1);
	const after = memberOf(doc.root(), parent);
	if (set.parentCreated && after && after.value.members?.length === 0) doc.remove(doc.root(), doc.root().members?.indexOf(after) ?? -1);
	return true;
}
