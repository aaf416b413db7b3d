/** The `containers` pack (opt-in): docker/podman, kubectl and helm commands that delete. */
import { hasFlag, parseOptions } from "../options.ts";
import type { RulePack, ShellRule } from "../types.ts";

const positionals = (args: string[]) =>
	parseOptions(args, { shortValue: "nlcfo", longValue: ["namespace", "context", "selector", "output", "filename", "kubeconfig"] })
		.positionals;

const rules: ShellRule[] = [
	{
		id: "containers/docker-delete",
		reason: "deletes containers, images or volumes (prune, rm -f, down -v)",
		programs: ["docker", "podman", "docker-compose", "nerdctl"],
		test(command) {
			const words = parseOptions(command.args).positionals;
			const options = parseOptions(command.args);
			if (words.includes("prune")) return true;
			if (words[0] === "volume" && (words[1] === "rm" || words[1] === "remove")) return true;
			if ((words[0] === "rm" || words[0] === "rmi" || words[1] === "rm") && hasFlag(options, "f", "--force")) return true;
			const compose = command.program === "docker-compose" || words[0] === "compose";
			return compose && words.includes("down") && hasFlag(options, "v", "--volumes");
		},
	},
	{
		id: "containers/kubectl-delete",
		reason: "kubectl deletes or drains cluster resources",
		programs: ["kubectl", "oc", "k"],
		test(command) {
			const [verb] = positionals(command.args);
			return verb === "delete" || verb === "drain" || (verb === "replace" && command.args.includes("--force"));
		},
	},
	{
		id: "containers/helm-uninstall",
		reason: "helm uninstalls a release",
		programs: ["helm"],
		test: (command) => ["uninstall", "delete", "del", "un"].includes(positionals(command.args)[0] ?? ""),
	},
];

/** docker/podman prune, rm -f, volume rm, compose down -v; kubectl delete/drain; helm uninstall. */
export const containersPack: RulePack = {
	name: "containers",
	description: "docker prune/rm -f/down -v, kubectl delete/drain, helm uninstall",
	rules,
};
