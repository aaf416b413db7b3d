/** The files guard (issue 35): reads of credentials, writes outside the project or into .git — and everyday file work. */

/** One file-tool call and the verdict it must get; `~` is the test's HOME. */
export interface FileCase {
	tool: "read" | "write" | "edit";
	path: string;
	block: boolean;
	rule?: string;
}

const cases = (tool: FileCase["tool"], block: boolean, rule: string | undefined, paths: readonly string[]): FileCase[] =>
	paths.map((path) => ({ tool, path, block, ...(rule ? { rule } : {}) }));

export const FILES_BLOCK: FileCase[] = [
	...cases("read", true, "files/read-credentials", [
		".env",
		"./.env",
		".env.local",
		".env.production",
		"config/.env",
		"deploy/prod.env",
		"apps/web/.env.development.local",
		"../other/.env",
		"~/.ssh/id_rsa",
		"~/.ssh/id_ed25519",
		"~/.ssh/id_ecdsa_sk",
		"~/.ssh/deploy_key",
		"~/.aws/credentials",
		"~/.aws/sso/cache/token.json",
		"~/.gnupg/private-keys-v1.d/key.key",
		"~/.kube/config",
		"~/.docker/config.json",
		"~/.config/gh/hosts.yml",
		"~/.config/gcloud/application_default_credentials.json",
		"~/.netrc",
		"~/.git-credentials",
		"~/.npmrc",
		"~/.pypirc",
		"~/.pgpass",
		"~/.vault-token",
		"certs/server.pem",
		"tls/server.key",
		"keys/id_rsa",
		"store.p12",
		"android/release.keystore",
		"secrets/service-account-prod.json",
		"/etc/shadow",
		"~/../../etc/shadow",
		"src/../.env",
		".ENV",
	]),
	...cases("edit", true, "files/read-credentials", [".env", "~/.ssh/id_rsa", "~/.aws/credentials"]),
	...cases("write", true, "files/write-outside", [
		"/etc/hosts",
		"/usr/local/bin/tool",
		"~/.bashrc",
		"~/.ssh/authorized_keys",
		"~/.config/app/settings.json",
		"../sibling/file.txt",
		"src/../../escape.txt",
		"/",
		"~",
	]),
	...cases("edit", true, "files/write-outside", ["~/.zshrc", "/etc/sudoers", "../other/src/index.ts"]),
	...cases("write", true, "files/write-git", [".git/hooks/pre-commit", ".git/config", "./.git/HEAD", "vendor/lib/.git/config", ".git"]),
	...cases("edit", true, "files/write-git", [".git/config", ".git/info/exclude"]),
];

export const FILES_ALLOW: FileCase[] = [
	...cases("read", false, undefined, [
		"src/app.ts",
		"README.md",
		".env.example",
		".env.sample",
		".env.template",
		"~/.ssh/id_ed25519.pub",
		"~/.ssh/known_hosts",
		"~/.ssh/config",
		"~/.aws/config",
		"/etc/hosts",
		"/usr/include/stdio.h",
		"package.json",
		".gitignore",
		".git/HEAD",
		".git/config",
		"docs/environment.md",
		"src/env.ts",
		"keys.ts",
		"public.key.md",
		"~/notes.txt",
	]),
	...cases("write", false, undefined, [
		"src/app.ts",
		"./notes.md",
		"new/dir/file.ts",
		".env",
		".env.example",
		".gitignore",
		".github/workflows/ci.yml",
		"/tmp/scratch/out.txt",
		"$HOME/literal-dollar-folder.txt",
	]),
	...cases("edit", false, undefined, ["src/app.ts", "package.json", ".env.example", ".gitignore"]),
];
