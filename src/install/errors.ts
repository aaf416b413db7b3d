/** Why `install`/`uninstall` refused a config file; the file is never changed when one is thrown. */
export type InstallErrorCode = "parse" | "shape" | "not-a-file" | "io" | "usage";

/** An install/uninstall refusal naming the file at fault and what would be accepted. */
export class InstallError extends Error {
	constructor(
		readonly code: InstallErrorCode,
		readonly file: string | undefined,
		message: string,
	) {
		super(message);
		this.name = "InstallError";
	}
}
