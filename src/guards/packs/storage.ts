/** The `storage` pack (opt-in): deletes in object storage (S3, GCS, Azure Storage, MinIO, s3cmd). */
import { parseOptions } from "../options.ts";
import type { RulePack } from "../types.ts";
import { verbRule } from "./_verbs.ts";
import { AWS_OPTIONS } from "./secrets.ts";

/** aws s3 rm/rb/sync --delete, s3api delete-*, gsutil/gcloud storage rm, az storage delete, mc rm/rb, s3cmd del/rb, azcopy remove. */
export const storagePack: RulePack = {
	name: "storage",
	description: "object storage deletes: aws s3 rm/rb/sync --delete, gsutil rm, gcloud storage rm, az storage delete, mc rm, s3cmd del",
	rules: [
		verbRule(
			"storage/s3",
			"deletes S3 objects or buckets",
			["aws"],
			["s3 (rm|rb)", "s3api (delete-object|delete-objects|delete-bucket|delete-bucket-.*)"],
			AWS_OPTIONS,
		),
		{
			id: "storage/s3-sync-delete",
			reason: "aws s3 sync --delete (or mv) deletes objects or files",
			programs: ["aws"],
			test(command) {
				const options = parseOptions(command.args, AWS_OPTIONS);
				const [service, verb] = options.positionals;
				if (service !== "s3" || options.long.has("dryrun")) return false;
				return (verb === "sync" && options.long.has("delete")) || verb === "mv";
			},
		},
		{
			id: "storage/gcs",
			reason: "deletes Cloud Storage objects or buckets",
			programs: ["gsutil", "gcloud"],
			test(command) {
				const options = parseOptions(command.args, { shortValue: "ohpu", longValue: ["project", "format", "billing-project"] });
				const words = options.positionals;
				if (command.program === "gsutil")
					return words[0] === "rm" || words[0] === "rb" || words[0] === "del" || (words[0] === "rsync" && options.short.has("d"));
				if (words[0] !== "storage" && !(words[0] === "alpha" && words[1] === "storage")) return false;
				const rest = words.slice(words[0] === "alpha" ? 2 : 1);
				return (
					rest[0] === "rm" || rest.includes("delete") || (rest[0] === "rsync" && options.long.has("delete-unmatched-destination-objects"))
				);
			},
		},
		{
			id: "storage/azure",
			reason: "deletes Azure Storage data",
			programs: ["az", "azcopy"],
			test(command) {
				const options = parseOptions(command.args, {
					shortValue: "ng",
					longValue: ["name", "account-name", "container-name", "subscription", "resource-group", "source", "destination", "pattern"],
				});
				const words = options.positionals;
				if (command.program === "azcopy") {
					const mirror = command.args.some((a) => /^--delete-destination(?:=(?:true|prompt))?$/i.test(a));
					return words[0] === "remove" || words[0] === "rm" || (words[0] === "sync" && mirror);
				}
				return words[0] === "storage" && words.slice(1).some((w) => /^(?:delete|delete-batch|purge)$/.test(w));
			},
		},
		verbRule(
			"storage/minio",
			"mc deletes objects or buckets",
			["mc", "mcli"],
			["(rm|rb)", "admin bucket remote (rm|remove)", "(ilm|retention|version) (rm|remove|clear)"],
		),
		{
			id: "storage/mirror",
			reason: "a mirror that deletes what the source lacks",
			programs: ["mc", "mcli", "s3cmd"],
			test: (command) =>
				command.args.some((a) => /^--(?:remove|delete-removed|delete-after|delete-after-fetch)$/.test(a)) &&
				!command.args.includes("--dry-run"),
		},
		verbRule("storage/s3cmd", "s3cmd deletes objects or buckets", ["s3cmd"], ["(del|rm|rb|delete|purge|deletepolicy|dellifecycle)"], {
			shortValue: "c",
			longValue: ["config", "access_key", "secret_key", "host", "host-bucket"],
		}),
	],
	protects: [
		"S3: aws s3 rm/rb/mv, sync --delete, s3api delete-*; GCS: gsutil rm/rb/rsync -d, gcloud storage rm/delete/rsync --delete-unmatched-destination-objects",
		"Azure: az storage … delete/delete-batch, azcopy remove, azcopy sync --delete-destination; MinIO mc rm/rb, mirror --remove; s3cmd del/rb, sync --delete-removed",
	],
	leavesAlone: ["listing, copying and uploading (aws s3 ls/cp, gsutil cp, mc cp), aws s3 sync without --delete, --dryrun"],
};
