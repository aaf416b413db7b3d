/**
 * Items a scanner has just seen as files (its glob only returns files and symlinks to files).
 * Validation consults this first so discovering N hooks does not cost N extra `stat` calls.
 * A WeakSet of the item objects: a copied or hand-made item is not in it and gets a real check.
 */
const knownFiles = new WeakSet<object>();

/** Records that `item.path` was seen as a file while scanning. */
export function markKnownFile<T extends object>(item: T): T {
	knownFiles.add(item);
	return item;
}

/** Whether `item` came from a scan that saw its path as a file. */
export function isKnownFile(item: object): boolean {
	return knownFiles.has(item);
}
