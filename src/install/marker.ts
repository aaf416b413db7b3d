/**
 * The argument `install` ends each command entry with: `<program> bridge <agent> --installed-by=xcsh-hooks`.
 * `bridge` accepts it and ignores it; it exists so that an entry is ours only when it says so, never
 * because a user's own command happens to end in `bridge claude`. A module of its own, free of imports:
 * the bridge's forwarding client (the hot path) reads it too.
 */
export const INSTALL_MARKER = "--installed-by=xcsh-hooks";

/** What a managed entry says before the marker: `<program> bridge <agent> --managed --installed-by=xcsh-hooks`. */
export const MANAGED_FLAG = "--managed";
