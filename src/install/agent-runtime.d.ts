/** The plugin runtime bundle, a virtual module of the compiled executable (scripts/build.ts): file name → base64 bytes. */
declare module "xcsh-hooks-agent-runtime" {
	export const files: Record<string, string>;
}
