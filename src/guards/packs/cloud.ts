/** The `cloud` pack (opt-in): aws, gcloud, az and infrastructure tools that destroy resources. */
import { hasFlag, parseOptions } from "../options.ts";
import type { RulePack, ShellRule } from "../types.ts";

const DESTRUCTIVE_VERB = /^(?:delete|terminate|remove|deregister|purge|destroy)(?:-|$)/;

const rules: ShellRule[] = [
	{
		id: "cloud/aws-delete",
		reason: "aws deletes or terminates resources",
		programs: ["aws"],
		test(command) {
			const options = parseOptions(command.args, { longValue: ["profile", "region", "output", "endpoint-url", "query"] });
			const [service, verb] = options.positionals;
			if (service === "s3")
				return (
					verb === "rb" ||
					verb === "rm" ||
					(verb === "sync" && hasFlag(options, "--delete")) ||
					(verb === "mv" && hasFlag(options, "--recursive"))
				);
			return verb !== undefined && DESTRUCTIVE_VERB.test(verb);
		},
	},
	{
		id: "cloud/gcloud-delete",
		reason: "gcloud/gsutil deletes resources",
		programs: ["gcloud", "gsutil"],
		test(command) {
			const words = parseOptions(command.args, { longValue: ["project", "zone", "region", "format"] }).positionals;
			if (command.program === "gsutil")
				return words[0] === "rm" || words[0] === "rb" || (words[0] === "rsync" && command.args.includes("-d"));
			return words.some((word) => word === "delete" || word === "reset");
		},
	},
	{
		id: "cloud/az-delete",
		reason: "az deletes resources",
		programs: ["az"],
		test: (command) =>
			parseOptions(command.args, { shortValue: "gn", longValue: ["name", "resource-group", "subscription"] }).positionals.some((word) =>
				DESTRUCTIVE_VERB.test(word),
			),
	},
	{
		id: "cloud/infra-destroy",
		reason: "destroys infrastructure (terraform/tofu/pulumi/cdk destroy)",
		programs: ["terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"],
		test(command) {
			const words = command.args.filter((arg) => !arg.startsWith("-"));
			if (words[0] === "destroy") return true;
			if (words[0] === "apply" && command.args.some((arg) => arg === "-destroy" || arg === "--destroy")) return true;
			return words[0] === "state" && (words[1] === "rm" || words[1] === "delete");
		},
	},
];

/** aws delete-* and terminate-* and s3 rm, gcloud and az delete, terraform/pulumi destroy. */
export const cloudPack: RulePack = {
	name: "cloud",
	description: "aws delete-*/terminate-*/s3 rm, gcloud/az delete, terraform/pulumi destroy",
	rules,
};
