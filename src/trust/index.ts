/** The trust store: approvals of project hooks by content hash (docs/contract.md#trust). */
export {
	createTrustStore,
	defaultTrustFile,
	hashFile,
	readHookFile,
	sha256Hex,
	type TrustCheck,
	type TrustEntry,
	type TrustErrorCode,
	type TrustFile,
	trustKey,
	TrustStore,
} from "./trust-store.ts";
