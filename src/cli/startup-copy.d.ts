/** The CLI's start-up modules as one module that fills their registry, a virtual module of the compiled executable (scripts/startup-chunk.ts). */
declare module "xcsh-hooks-startup-copy" {
	export const source: string;
}
