import { expect, test } from "bun:test";
import { rootOnlyProblem } from "../../src/fs/root-owned.ts";

test("rootOnlyProblem: nothing there is null, without a folder on the way too; a relative path or a shared folder is a problem", () => {
	expect(rootOnlyProblem("/etc/xcsh-no-such-folder/settings.json")).toBeNull();
	expect(rootOnlyProblem("/etc/hostname/below-a-file")).toBeNull(); // ENOTDIR: nothing can be there
	expect(rootOnlyProblem("etc/xcsh/settings.json")).toBe("etc/xcsh/settings.json is not an absolute path");
	// /tmp is writable by every user: whatever is below it is not root's alone, whether it exists or not.
	expect(rootOnlyProblem("/tmp/xcsh-anything")).toContain("/tmp is writable by others");
});
