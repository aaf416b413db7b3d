import { XcshError } from "../errors.ts";

/** Why `install`/`uninstall` refused a config file; the file is never changed when one is thrown. */
export type InstallErrorCode = "parse" | "shape" | "not-a-file" | "io" | "usage";

/** An install/uninstall refusal (an `XcshError` `INSTALL_…`) naming the file at fault and what would be accepted. */
export function installError(code: InstallErrorCode, file: string | undefined, message: string): XcshError {
	const codes = {
		parse: "INSTALL_PARSE",
		shape: "INSTALL_SHAPE",
		"not-a-file": "INSTALL_NOT_A_FILE",
		io: "INSTALL_IO",
		usage: "INSTALL_USAGE",
	} as const;
	return new XcshError(codes[code], message, file === undefined ? {} : { file });
}

/** Whether `error` is an install refusal (see {@link installError}). */
export function isInstallError(error: unknown): error is XcshError {
	return error instanceof XcshError && error.code.startsWith("INSTALL_");
}
