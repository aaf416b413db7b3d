/** Every command the issue (26) lists, with the verdict it asks for. */
import { allows, blocks, type GuardCase } from "./_case.ts";

export const ISSUE_BLOCK: GuardCase[] = [
	...blocks("filesystem/recursive-delete", [
		// Issue 26 had `build` here; `build` is now a regenerable folder (issue 35), so the split flags are tried on `src`.
		"rm -r -f src",
		"rm -fr /",
		'bash -c "rm -rf ~"',
		"xargs rm -rf",
		"find . -exec rm -rf {} +",
	]),
	...blocks("git/reset-hard", [
		"/usr/bin/git reset --hard",
		"\\git reset --hard",
		"env -i git reset --hard",
		"sudo git reset --hard",
		"command git reset --hard",
		"nohup git reset --hard",
		"time git reset --hard",
	]),
	...blocks("filesystem/recursive-delete", ['eval "rm -rf /"', 'echo "rm -rf /" | sh']),
	...blocks("git/force-push", ["git push origin +main", "git push --force=true"]),
	...blocks("git/clean-force", ["git clean -fdx"]),
	...blocks("git/checkout-worktree", ["git checkout -- ."]),
	...blocks("git/branch-force-delete", ["git branch -D feature"]),
	...blocks("filesystem/find-delete", ["find . -delete"]),
	...blocks("filesystem/code-delete", [
		`python -c "import shutil; shutil.rmtree('/')"`,
		`node -e "require('fs').rmSync('/', { recursive: true, force: true })"`,
		`ruby -e 'require "fileutils"; FileUtils.rm_rf("/")'`,
		`perl -e 'use File::Path; rmtree("/")'`,
	]),
];

export const ISSUE_ALLOW: GuardCase[] = allows([
	"echo 'rm -rf /'",
	"grep 'git reset --hard' notes.md",
	'git commit -m "stop rm -rf in CI"',
	"cat <<'EOF' > notes.md\nNever run rm -rf / or git reset --hard here.\nEOF",
	"git push --force-with-lease",
	"sudo git status",
]);
