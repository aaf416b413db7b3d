/** The `ci` pack (opt-in): deleting jobs, pipelines, variables and projects in Jenkins, GitLab (glab) and CircleCI. */
import type { RulePack, ShellCommand } from "../types.ts";
import { verbRule } from "./_verbs.ts";

/** The Jenkins CLI: `jenkins-cli …` or `java -jar jenkins-cli.jar …`. */
const jenkinsArgs = (command: ShellCommand): string[] | undefined => {
	if (command.program === "jenkins-cli" || command.program === "jenkins") return command.args;
	if (!/^java\d*$/.test(command.program)) return undefined;
	const at = command.args.indexOf("-jar");
	return at >= 0 && /jenkins-cli[^/]*\.jar$/.test(command.args[at + 1] ?? "") ? command.args.slice(at + 2) : undefined;
};

/** Jenkins delete-job/delete-node/groovy, glab repo/release/variable delete, circleci context delete… */
export const ciPack: RulePack = {
	name: "ci",
	description: "CI deletes: Jenkins CLI delete-*/groovy/shutdown, glab delete commands and DELETE api calls, circleci context delete",
	rules: [
		{
			id: "ci/jenkins",
			reason: "the Jenkins CLI deletes jobs, nodes or builds, runs code on the controller or shuts it down",
			test(command) {
				const args = jenkinsArgs(command);
				const verb = args?.find((a) =>
					/^(?:delete-.+|clear-queue|groovy|groovysh|shutdown|safe-shutdown|restart|safe-restart|uninstall-plugin|disconnect-node|reload-configuration)$/.test(
						a,
					),
				);
				return verb !== undefined && `the Jenkins CLI runs ${verb}`;
			},
		},
		verbRule(
			"ci/glab",
			"glab deletes a GitLab repository, release, pipeline, variable or key",
			["glab"],
			[
				"(repo|project|release|ci|pipeline|variable|var|label|issue|mr|schedule|deploy-key|ssh-key|gpg-key|snippet|cluster|token|incident|stack|securefile|job|runner) (delete|del|rm|remove|revoke|erase|archive|transfer)",
				"(repo|project) (delete|archive|transfer)",
				"(release) delete-asset",
			],
			{ shortValue: "R", longValue: ["repo", "group"] },
		),
		{
			id: "ci/glab-api",
			reason: "glab api sends a DELETE request",
			programs: ["glab"],
			test: (command) =>
				command.args[0] === "api" &&
				command.args.some(
					(a, i) =>
						(/^(?:-X|--method)$/.test(a) && /^delete$/i.test(command.args[i + 1] ?? "")) ||
						/^(?:-XDELETE|--method=DELETE|-X=DELETE)$/i.test(a),
				),
		},
		verbRule(
			"ci/circleci",
			"circleci deletes contexts, secrets, namespaces or runners",
			["circleci"],
			[
				"context (delete|remove-secret)",
				"namespace delete",
				"runner (resource-class|token|instance) delete",
				"project secret delete",
				"orb unlist",
			],
		),
		verbRule("ci/gitlab-runner", "gitlab-runner unregisters runners", ["gitlab-runner"], ["unregister"]),
	],
	protects: [
		"Jenkins CLI (jenkins-cli or java -jar jenkins-cli.jar): delete-job/node/view/builds, clear-queue, groovy, shutdown/restart, uninstall-plugin",
		"glab: repo/release/ci/variable/label/schedule/key/snippet/token deletes, repo archive/transfer, glab api -X DELETE",
		"circleci context delete/remove-secret, runner deletes, orb unlist; gitlab-runner unregister",
	],
	leavesAlone: ["reading and running pipelines (glab ci view/run, jenkins-cli build/console, circleci config validate)"],
};
