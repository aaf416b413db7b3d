// The bundler inlines it into the executable: no second copy to forget when releasing.
import { version } from "../package.json" with { type: "json" };

/** This package's version (package.json), what the bridge socket's handshake compares. */
export const PACKAGE_VERSION: string = version;
